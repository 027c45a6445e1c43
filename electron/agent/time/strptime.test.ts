import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fixedWidthReader, parseStrptime, parseStrptimeByRegex, strptimeReader } from './strptime.js';

const wall = (year: number, month: number, day: number, hour = 0, minute = 0, second = 0, microsecond = 0) => ({ year, month, day, hour, minute, second, microsecond });

describe('parseStrptime', () => {
  it.each([
    ['2026-03-29 02:30:15', '%Y-%m-%d %H:%M:%S', wall(2026, 3, 29, 2, 30, 15)],
    ['Jan 1 2000', '%b %d %Y', wall(2000, 1, 1)],
    ['jan 01 2000', '%b %d %Y', wall(2000, 1, 1)],
    ['JANUARY 5 1999', '%B %d %Y', wall(1999, 1, 5)],
    ['Mon, 05 Jan 2026 06:00:00', '%a, %d %b %Y %H:%M:%S', wall(2026, 1, 5, 6)],
    ['Monday 5 January 2026', '%A %d %B %Y', wall(2026, 1, 5)],
    ['1/2/26', '%m/%d/%y', wall(2026, 1, 2)],
    ['12/31/69', '%m/%d/%y', wall(1969, 12, 31)],
    ['01/01/68', '%m/%d/%y', wall(2068, 1, 1)],
    ['2026-01-05 06:00:00.5', '%Y-%m-%d %H:%M:%S.%f', wall(2026, 1, 5, 6, 0, 0, 500_000)],
    ['2026-01-05 06:00:00.000123', '%Y-%m-%d %H:%M:%S.%f', wall(2026, 1, 5, 6, 0, 0, 123)],
    ['12:15:00 AM 2026-01-05', '%I:%M:%S %p %Y-%m-%d', wall(2026, 1, 5, 0, 15)],
    ['12:15:00 pm 2026-01-05', '%I:%M:%S %p %Y-%m-%d', wall(2026, 1, 5, 12, 15)],
    ['01:15:00 PM 2026-01-05', '%I:%M:%S %p %Y-%m-%d', wall(2026, 1, 5, 13, 15)],
    ['2026 060', '%Y %j', wall(2026, 3, 1)],
    ['2024 366', '%Y %j', wall(2024, 12, 31)],
    ['100% 2026', '100%% %Y', wall(2026, 1, 1)],
    ['5.1.2026', '%-d.%-m.%Y', wall(2026, 1, 5)],
    ['Jan   1    2000', '%b %d %Y', wall(2000, 1, 1)],
    ['Jan\t1 2000', '%b %d %Y', wall(2000, 1, 1)],
    ['14:05', '%H:%M', wall(1900, 1, 1, 14, 5)],
    ['date=2026-01-05', 'DATE=%Y-%m-%d', wall(2026, 1, 5)],
    ['2026-W01-1', '%G-W%V-%u', wall(2025, 12, 29)],
    ['2026 01 1', '%Y %W %w', wall(2026, 1, 5)],
    ['Mon Jan  5 06:00:00 2026', '%c', wall(2026, 1, 5, 6)],
    ['01/05/26 06:00:00', '%x %X', wall(2026, 1, 5, 6)],
    ['%c 2026', '%%c %Y', wall(2026, 1, 1)],
  ])('%s with %s', (text, format, expected) => {
    expect(parseStrptime(text, format)).toEqual(expected);
  });

  it.each([
    ['2026-01-05T06:00:00+0200', 120],
    ['2026-01-05T06:00:00+02:00', 120],
    ['2026-01-05T06:00:00-05:30', -330],
    ['2026-01-05T06:00:00Z', 0],
  ])('%%z reads the offset of %s', (text, offset) => {
    expect(parseStrptime(text, '%Y-%m-%dT%H:%M:%S%z')).toEqual({ ...wall(2026, 1, 5, 6), offsetMinutes: offset });
  });

  it('%Z accepts UTC and GMT only, as offset 0', () => {
    expect(parseStrptime('2026-01-05 06:00 UTC', '%Y-%m-%d %H:%M %Z')?.offsetMinutes).toBe(0);
    expect(parseStrptime('2026-01-05 06:00 gmt', '%Y-%m-%d %H:%M %Z')?.offsetMinutes).toBe(0);
    expect(parseStrptime('2026-01-05 06:00 CET', '%Y-%m-%d %H:%M %Z')).toBeNull();
  });

  it.each([
    ['2026-02-30', '%Y-%m-%d'], // no such day
    ['2025-02-29', '%Y-%m-%d'], // not a leap year
    ['2026-13-01', '%Y-%m-%d'],
    ['2026-01-05 24:00', '%Y-%m-%d %H:%M'],
    ['2026-01-05 23:60', '%Y-%m-%d %H:%M'],
    ['2026-01-05 23:59:60', '%Y-%m-%d %H:%M:%S'], // leap second: refused like datetime
    ['2026-01-05 extra', '%Y-%m-%d'], // unconverted data remains
    ['26-01-05', '%Y-%m-%d'], // %Y needs four digits
    ['2026-01-05 06:00:00.1234567', '%Y-%m-%d %H:%M:%S.%f'],
    ['Jnu 1 2000', '%b %d %Y'],
    ['2026-01-05', '%Y-%m-%d %Q'], // unknown directive
    ['2026-01-05', '%Y-%m-%d %'], // dangling %
    ['2026 367', '%Y %j'],
    ['20260105', '%Y-%m-%d'],
    ['', '%Y'],
    ['2026 2027', '%Y %Y'], // a repeated directive, refused like CPython
  ])('refuses %s with %s', (text, format) => {
    expect(parseStrptime(text, format)).toBeNull();
  });

  it('needs whitespace where the format has whitespace, like Python', () => {
    expect(parseStrptime('Jan12000', '%b %d %Y')).toBeNull();
  });

  it('treats regex characters in literal text literally', () => {
    expect(parseStrptime('(2026).[01]', '(%Y).[%m]')).toEqual(wall(2026, 1, 1));
    expect(parseStrptime('2026x01', '%Y.%m')).toBeNull();
  });

  it('reads %I without %p as AM', () => {
    expect(parseStrptime('12:30', '%I:%M')?.hour).toBe(0);
    expect(parseStrptime('11:30', '%I:%M')?.hour).toBe(11);
  });

  it('backtracks across alternatives like Python (%d%m reads 111 only one way)', () => {
    // Python: strptime('1112026', '%d%m%Y') → 11 Jan 2026 (first alternative that completes the match).
    expect(parseStrptime('1112026', '%d%m%Y')).toEqual(wall(2026, 1, 11));
  });
});

describe('parseStrptime fast reader', () => {
  // Formats the fast reader takes (numeric fields, literals, whitespace) and ones it must leave to
  // the regex (names, 12-hour clock, offsets, adjacent fields, digit literals, week numbers).
  const FORMATS = [
    '%Y-%m-%d %H:%M:%S',
    '%Y-%m-%d %H:%M',
    '%Y-%m-%dT%H:%M:%S.%f',
    '%d.%m.%Y %H:%M',
    '%-d.%-m.%Y',
    '%m/%d/%y %H:%M:%S',
    '%Y/%m/%d  %H:%M:%S,%f',
    'DATE=%Y-%m-%d',
    '%Y-%m-%d , %H:%M',
    '%d.%m.%Y %H:%M Uhr',
    '%H:%M',
    '%Y',
    '%y',
    '%%%Y-%m-%d%%',
    '%x %X',
    '%Y-%m-%d %H:%M:%S%z',
    '%Y-%m-%d %H:%M %Z',
    '%Y-%m-%d %I:%M:%S %p',
    '%b %d %Y',
    '%d%m%Y',
    '%Y%m%d%H%M%S',
    '%Y%m%dT%H%M%S.%f',
    '%y%m%d %H%M',
    '%H%M%S%f',
    '%f%S',
    '%Y-%m-%d 0%H',
    '%Y %j',
    '%Y %W %w',
    '%Y %Y',
  ];

  /** The format's pieces: a directive (with its flag) or one character. */
  function pieces(format: string): string[] {
    const out: string[] = [];
    for (let i = 0; i < format.length; i += 1) {
      if (format[i] !== '%') {
        out.push(format[i]!);
        continue;
      }
      const flag = format[i + 1] === '-' || format[i + 1] === '#' ? 1 : 0;
      out.push(format.slice(i, i + 2 + flag));
      i += 1 + flag;
    }
    return out;
  }

  const digits = (minLength: number, maxLength: number) => fc.string({ unit: fc.constantFrom(...'0123456789'), minLength, maxLength });
  const DIGITS_BY_FIELD: Record<string, [number, number]> = { Y: [4, 4], y: [2, 2], f: [1, 6] };
  /** Values each numeric field accepts, to make texts that are mostly right. */
  const RANGE_BY_FIELD: Record<string, [number, number]> = { Y: [1, 9999], y: [0, 99], m: [1, 12], d: [1, 31], H: [0, 23], I: [1, 12], M: [0, 59], S: [0, 59] };
  const padded = (min: number, max: number, width: number) => fc.integer({ min, max }).map((n) => String(n).padStart(width, '0'));

  /** Text close to what the format reads: mostly right pieces, with some out-of-range values, odd spacing and mutations. */
  const textFor = (format: string): fc.Arbitrary<string> =>
    fc
      .tuple(
        ...pieces(format).map((piece): fc.Arbitrary<string> => {
          if (piece.startsWith('%') && piece.length > 1) {
            const letter = piece[piece.length - 1]!;
            const [min, max] = DIGITS_BY_FIELD[letter] ?? [1, 2];
            const range = RANGE_BY_FIELD[letter];
            const right = letter === 'f' ? digits(1, 6) : range ? fc.oneof({ weight: 4, arbitrary: padded(range[0], range[1], letter === 'Y' ? 4 : 2) }, padded(range[0], range[1], 0)) : digits(min, max);
            return fc.oneof(
              { weight: 24, arbitrary: right },
              { weight: 2, arbitrary: digits(0, 7) },
              // Small values zero-padded to any width: 5, 05, 005, 0012 …
              { weight: 2, arbitrary: fc.tuple(fc.integer({ min: 0, max: 99 }), fc.integer({ min: 0, max: 5 })).map(([n, width]) => String(n).padStart(width, '0')) },
              { weight: 1, arbitrary: digits(1, 1).map((d) => ` ${d}`) },
              { weight: 1, arbitrary: fc.constant('') },
              { weight: 1, arbitrary: fc.constantFrom('%', 'Jan', 'oct', 'PM', 'am', '+0200', '-05:30', 'Z', 'UTC', 'mon', '\u0661') },
            );
          }
          if (/\s/.test(piece)) return fc.oneof({ weight: 8, arbitrary: fc.constant(' ') }, fc.constantFrom('  ', '\t', '\u00a0', '', ' \n', '\u3000'));
          return fc.oneof({ weight: 12, arbitrary: fc.constant(piece) }, fc.constantFrom(piece.toLowerCase(), piece.toUpperCase(), '', '-', '0', ' '));
        }),
      )
      .map((parts) => parts.join(''));

  const noise = fc.string({ unit: fc.constantFrom(...'0123456789 -:./T\tZ+%aPm\u00a0'), maxLength: 24 });

  it('reads every text exactly as the regex alone does', () => {
    const readers = new Map(FORMATS.map((format) => [format, strptimeReader(format)]));
    const cases = fc.oneof(...FORMATS.map((format) => fc.tuple(fc.constant(format), fc.oneof({ weight: 4, arbitrary: textFor(format) }, { weight: 1, arbitrary: noise }))));
    fc.assert(
      fc.property(cases, ([format, text]) => {
        const expected = parseStrptimeByRegex(text, format);
        expect(parseStrptime(text, format)).toEqual(expected);
        expect(readers.get(format)!(text)).toEqual(expected);
      }),
      { numRuns: 5_000 },
    );
  });

  it('reads well-formed time stamps of every valid date and time like the regex', () => {
    const format = '%Y-%m-%d %H:%M:%S.%f';
    const read = strptimeReader(format);
    const stamp = fc.tuple(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 0, max: 13 }), fc.integer({ min: 0, max: 32 }), fc.integer({ min: 0, max: 24 }), fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 61 }), digits(1, 6));
    fc.assert(
      fc.property(stamp, ([y, mo, d, h, mi, s, f]) => {
        const p = (n: number, width = 2) => String(n).padStart(width, '0');
        const text = `${p(y, 4)}-${p(mo)}-${p(d)} ${p(h)}:${p(mi)}:${p(s)}.${f}`;
        expect(read(text)).toEqual(parseStrptimeByRegex(text, format));
      }),
      { numRuns: 5000 },
    );
  });

  it('leaves the cases it does not know to the regex', () => {
    expect(parseStrptime('2026-01- 5', '%Y-%m-%d')).toEqual(wall(2026, 1, 5));
    expect(parseStrptime('2026-01-05t06:00', '%Y-%m-%dT%H:%M')).toEqual(wall(2026, 1, 5, 6));
    expect(parseStrptime('2026-01-05\u00a006:00', '%Y-%m-%d %H:%M')).toEqual(wall(2026, 1, 5, 6));
    expect(parseStrptime('5.1.2026', '%d.%m.%Y')).toEqual(wall(2026, 1, 5));
    expect(parseStrptime('2026-02-29', '%Y-%m-%d')).toBeNull();
  });
});

describe('fixedWidthReader', () => {
  const pad = (n: number, width: number) => String(n).padStart(width, '0');
  const directive = fc.constantFrom('%Y', '%y', '%m', '%d', '%H', '%M', '%S', '%f', '%-d', '%#H');
  const literal = fc.constantFrom('-', '.', ':', '/', 'T', ' ', '  ', '\t', '%%', ',', 'x', '0');
  const format = fc.oneof(
    fc.constantFrom('%d.%m.%Y %H:%M:%S', '%Y-%m-%d %H:%M:%S.%f', '%Y%m%d%H%M%S', '%m/%d/%y %H:%M', '%H:%M:%S', '%Y-%m-%dT%H:%M:%S.%f'),
    fc.array(fc.oneof(directive, literal), { minLength: 1, maxLength: 10 }).map((parts) => parts.join('')),
  );
  /** A text for the format: fields of random values and widths, whitespace of random kinds. */
  const textFor = (fmt: string) =>
    fc
      .record({
        values: fc.array(fc.oneof(fc.integer({ min: 0, max: 99 }), fc.integer({ min: 0, max: 9999 })), { minLength: 10, maxLength: 10 }),
        narrow: fc.boolean(),
        space: fc.constantFrom(' ', '  ', '\t', '\u00a0'),
        tail: fc.constantFrom('', '', ' ', '1'),
      })
      .map(({ values, narrow, space, tail }) => {
        let n = 0;
        return (
          fmt.replace(/%[-#]?(.)|\s+/g, (token, letter: string | undefined) => {
            if (letter === undefined) return space;
            const value = values[n++ % values.length]!;
            if (letter === '%') return '%';
            if (letter === 'Y') return pad(value, 4);
            if (letter === 'f') return String(value);
            return narrow ? String(value % 100) : pad(value % 100, 2);
          }) + tail
        );
      });

  it('reads exactly what the regex reads, or gives null', () => {
    let read = 0;
    fc.assert(
      fc.property(
        format.chain((fmt) => fc.tuple(fc.constant(fmt), textFor(fmt))),
        ([fmt, text]) => {
          const wall = fixedWidthReader(fmt)?.(text) ?? null;
          if (wall !== null) {
            read += 1;
            expect(wall).toEqual(parseStrptimeByRegex(text, fmt));
          }
        },
      ),
      { numRuns: 5_000 },
    );
    expect(read).toBeGreaterThan(125);
  });

  it('takes only numeric formats, and only the fixed-width spelling', () => {
    for (const fmt of ['%b %d %Y', '%Y-%m-%d %z', '%I:%M %p', '%j', '%Y%Y', '%c', '%', '%Y-%m-%d 0%H']) expect(fixedWidthReader(fmt)).toBeUndefined();
    expect(fixedWidthReader('%d.%m.%Y %H:%M:%S')!('05.01.2026 07:00:00')).toEqual(wall(2026, 1, 5, 7));
    expect(fixedWidthReader('%Y%m%d%H%M%S')!('20260105070809')).toEqual(wall(2026, 1, 5, 7, 8, 9));
    expect(fixedWidthReader('%Y-%m-%d %H:%M:%S.%f')!('2026-01-05 07:00:00.5')).toEqual(wall(2026, 1, 5, 7, 0, 0, 500_000));
    for (const text of ['5.1.2026 07:00:00', '05.01.2026 7:00:00', '05.01.2026 07:00:0', '30.02.2026 07:00:00', '05.01.2026\u00a007:00:00']) expect(fixedWidthReader('%d.%m.%Y %H:%M:%S')!(text)).toBeNull();
  });
});
