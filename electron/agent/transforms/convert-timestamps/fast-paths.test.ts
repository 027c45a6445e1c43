import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isoMicros } from '../../../../shared/records/record.js';
import { parseStrptime } from '../../time/strptime.js';
import { wallTimeToUtcMicros } from '../../time/zoned.js';
import { type FixedWall, ZoneMinutes, compileFixedFormat, fastIsoUtc, isoFromMsAndMicros, naiveMs } from './fast-paths.js';

const pad = (n: number, width: number) => String(n).padStart(width, '0');

/** The general path for ISO UTC texts (convert-timestamps-transform.ts): regex, Date, isoMicros. */
function generalIsoUtc(text: string): string | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?Z$/.exec(text.trim());
  if (!match) return undefined;
  const [, y, mo, d, h, mi, s, fraction] = match;
  const date = new Date(0);
  date.setUTCFullYear(Number(y), Number(mo) - 1, Number(d));
  date.setUTCHours(Number(h), Number(mi), Number(s), 0);
  if (date.getUTCDate() !== Number(d) || date.getUTCHours() !== Number(h)) return undefined;
  return isoMicros(BigInt(date.getTime()) * 1000n + BigInt((fraction ?? '').slice(0, 6).padEnd(6, '0')));
}

const twoDigits = fc.integer({ min: 0, max: 99 });
const isoText = fc.oneof(
  fc
    .tuple(fc.integer({ min: -62_167_219_200_000, max: 253_402_300_799_999 }), fc.integer({ min: 0, max: 10 }), fc.integer({ min: 0, max: 999_999_999 }))
    .map(([ms, digits, extra]) => {
      const iso = new Date(ms).toISOString();
      return digits === 0 ? `${iso.slice(0, 19)}Z` : `${iso.slice(0, 20)}${(iso.slice(20, 23) + pad(extra, 9)).slice(0, digits)}Z`;
    }),
  fc
    .tuple(fc.integer({ min: 0, max: 9999 }), twoDigits, twoDigits, twoDigits, twoDigits, twoDigits, fc.constantFrom('', '.', '.5', '.123456', '.000001', '.1234567891'))
    .map(([y, mo, d, h, mi, s, f]) => `${pad(y, 4)}-${pad(mo, 2)}-${pad(d, 2)}T${pad(h, 2)}:${pad(mi, 2)}:${pad(s, 2)}${f}Z`),
  fc.constantFrom('1969-12-31T23:59:59.999500Z', '1969-12-31T23:59:59.000001Z', ' 2026-01-05T06:00:00Z', '2026-01-05t06:00:00z', '2026-01-05T06:00:00+00:00'),
  fc.string(),
);

describe('fastIsoUtc', () => {
  it('gives what the general path gives, or declines', () => {
    fc.assert(
      fc.property(isoText, (text) => {
        const fast = fastIsoUtc(text);
        if (fast !== undefined) expect(fast).toBe(generalIsoUtc(text));
      }),
      { numRuns: 20_000 },
    );
  });

  it('takes the texts parsers write, and returns them as they are', () => {
    const text = '2026-01-01T00:00:01.000000Z';
    expect(fastIsoUtc(text)).toBe(text);
    expect(fastIsoUtc('2026-01-05T06:00:00Z')).toBe('2026-01-05T06:00:00.000000Z');
    expect(fastIsoUtc('2026-01-05T06:00:00.5Z')).toBe('2026-01-05T06:00:00.500000Z');
    expect(fastIsoUtc('2026-02-29T00:00:00Z')).toBeUndefined();
  });
});

describe('isoFromMsAndMicros', () => {
  it('is isoMicros of the same instant', () => {
    fc.assert(
      fc.property(fc.integer({ min: -70_000_000_000_000, max: 260_000_000_000_000 }), fc.integer({ min: 0, max: 999 }), (ms, sub) => {
        expect(isoFromMsAndMicros(ms, sub)).toBe(isoMicros(BigInt(ms) * 1000n + BigInt(sub)));
      }),
      { numRuns: 20_000 },
    );
  });
});

describe('compileFixedFormat', () => {
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

  it('reads exactly what parseStrptime reads, or declines', () => {
    let read = 0;
    fc.assert(
      fc.property(
        format.chain((fmt) => fc.tuple(fc.constant(fmt), textFor(fmt))),
        ([fmt, text]) => {
          const reader = compileFixedFormat(fmt);
          const wall: FixedWall = { year: 0, month: 0, day: 0, hour: 0, minute: 0, second: 0, microsecond: 0 };
          if (reader?.(text, wall)) {
            read += 1;
            expect(parseStrptime(text.trim(), fmt)).toEqual(wall);
          }
        },
      ),
      { numRuns: 20_000 },
    );
    expect(read).toBeGreaterThan(500);
  });

  it('compiles only fixed-width numeric formats', () => {
    for (const fmt of ['%b %d %Y', '%Y-%m-%d %z', '%I:%M %p', '%j', '%Y%Y', ' %Y', '%Y ', '%c', '%']) expect(compileFixedFormat(fmt)).toBeUndefined();
    const wall: FixedWall = { year: 0, month: 0, day: 0, hour: 0, minute: 0, second: 0, microsecond: 0 };
    expect(compileFixedFormat('%d.%m.%Y %H:%M:%S')!('05.01.2026 07:00:00', wall)).toBe(true);
    expect(wall).toEqual({ year: 2026, month: 1, day: 5, hour: 7, minute: 0, second: 0, microsecond: 0 });
    expect(compileFixedFormat('%d.%m.%Y')!('30.02.2026', wall)).toBe(false);
  });
});

describe('ZoneMinutes', () => {
  it('gives the instant and DST case wallTimeToUtcMicros gives, minute after minute', () => {
    const days = [
      [2026, 3, 29],
      [2026, 10, 25],
      [2026, 3, 8],
      [2026, 11, 1],
      [2026, 4, 5],
      [2026, 6, 15],
    ] as const;
    const zones = ['UTC', 'Europe/Berlin', 'America/Chicago', 'Australia/Lord_Howe', 'Asia/Kolkata'];
    fc.assert(
      fc.property(
        fc.constantFrom(...zones),
        fc.array(fc.tuple(fc.constantFrom(...days), fc.integer({ min: 0, max: 4 }), fc.integer({ min: 0, max: 59 }), fc.integer({ min: 0, max: 59 }), fc.integer({ min: 0, max: 999_999 })), { maxLength: 30 }),
        (zone, times) => {
          const minutes = new ZoneMinutes(zone);
          for (const [[year, month, day], hour, minute, second, microsecond] of times) {
            const wall = { year, month, day, hour, minute, second, microsecond };
            const naive = naiveMs(wall);
            const { offsetMs, dst } = minutes.offsetFor(wall, naive);
            const expected = wallTimeToUtcMicros(wall, zone);
            expect(BigInt(naive - offsetMs) * 1000n + BigInt(microsecond)).toBe(expected.micros);
            expect(dst).toBe(expected.dst);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
