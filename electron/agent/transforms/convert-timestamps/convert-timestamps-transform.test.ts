import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConvertTimestampsTransformSchema } from '../../../../shared/config/schema.js';
import { type FieldValue, isoMicros } from '../../../../shared/records/record.js';
import { guessDateTime, parseStrptime } from '../../time/strptime.js';
import { wallTimeToUtcMicros } from '../../time/zoned.js';
import { record } from '../../../testing/records.js';
import { createConvertTimestampsTransform } from './convert-timestamps-transform.js';

const convert = (options: Record<string, unknown>) =>
  createConvertTimestampsTransform(ConvertTimestampsTransformSchema.parse({ transform_name: 'c', transform_type: 'convert_timestamps', filter_stream: ['*'], ...options }));
const converted = (options: Record<string, unknown>, value: FieldValue) => convert({ field_names: 't', ...options }).apply([record({ t: value })]).records[0]!.fieldvalues.t;

describe('convert_timestamps', () => {
  it('reads text with a strptime format in the given time zone', () => {
    expect(converted({ format: '%d.%m.%Y %H:%M:%S', timezone: 'Europe/Berlin' }, '05.01.2026 07:00:00')).toBe('2026-01-05T06:00:00.000000Z');
    expect(converted({ format: '%b %d %Y' }, 'Jan 1 2000')).toBe('2000-01-01T00:00:00.000000Z');
  });

  it('guesses the format when neither format nor unit is given', () => {
    expect(converted({ timezone: 'America/Chicago' }, '2026-07-04 12:00')).toBe('2026-07-04T17:00:00.000000Z');
    expect(converted({}, '2026-07-04T12:00:00+02:00')).toBe('2026-07-04T10:00:00.000000Z');
  });

  it.each([
    ['s', 1_767_592_800, '2026-01-05T06:00:00.000000Z'],
    ['s', 1_767_592_800.25, '2026-01-05T06:00:00.250000Z'],
    ['ms', 1_767_592_800_123, '2026-01-05T06:00:00.123000Z'],
    ['us', 1_767_592_800_123_456, '2026-01-05T06:00:00.123456Z'],
    ['ns', 1_767_592_800_123_456_000, '2026-01-05T06:00:00.123456Z'],
    ['D', 20_458, '2026-01-05T00:00:00.000000Z'],
    ['s', '1767592800', '2026-01-05T06:00:00.000000Z'],
    ['s', -1, '1969-12-31T23:59:59.000000Z'],
  ] as const)('reads epoch %s %s', (unit, value, iso) => {
    expect(converted({ unit }, value)).toBe(iso);
  });

  it('keeps values that are already ISO UTC instants, whatever format or unit says', () => {
    expect(converted({ format: '%d.%m.%Y', timezone: 'Europe/Berlin' }, '2026-01-05T06:00:00.000000Z')).toBe('2026-01-05T06:00:00.000000Z');
    expect(converted({ unit: 's', timezone: 'Europe/Berlin' }, '2026-01-05T06:00:00Z')).toBe('2026-01-05T06:00:00.000000Z');
    expect(converted({ timezone: 'Asia/Tokyo' }, '2026-01-05T06:00:00.5Z')).toBe('2026-01-05T06:00:00.500000Z');
  });

  it('passes records whose values are ISO UTC texts already on as they are, without copying', () => {
    const input = [record({ t: '2026-01-05T06:00:00.000000Z', x: 1 }, { timestamp: '2026-01-05T06:00:00.000000Z' }), record({ t: '2026-01-05T06:00:00.5Z' })];
    const { records, problems } = convert({ field_names: 't', format: '%Y-%m-%d %H:%M', timezone: 'Europe/Berlin' }).apply(input);
    expect(records[0]).toBe(input[0]);
    expect(records[1]).not.toBe(input[1]);
    expect(records[1]!.fieldvalues).toEqual({ t: '2026-01-05T06:00:00.500000Z' });
    expect(input[1]!.fieldvalues.t).toBe('2026-01-05T06:00:00.5Z');
    expect(problems).toEqual([]);
  });

  it('reads a fixed-width format as parseStrptime and wallTimeToUtcMicros do, fast reader or not', () => {
    const format = '%Y-%m-%d %H:%M:%S.%f';
    const zone = 'America/Chicago';
    const texts = ['2026-03-08 02:30:00.123456', '2026-3-8 2:30:00.123456', '2026-03-08  02:30:00.5', '2026-11-01 01:30:00.000001', '1850-01-01 00:00:00.000001', '0001-01-01 00:00:00.000001', '2026-02-29 00:00:00.0'];
    const { records, problems } = convert({ field_names: 't', format, timezone: zone }).apply(texts.map((t, i) => record({ t }, { timestamp: i === 0 ? t : 'x' })));
    const general = (text: string) => {
      const wall = parseStrptime(text, format);
      return wall ? isoMicros(wallTimeToUtcMicros(wall, zone).micros) : text;
    };
    expect(records.map((r) => r.fieldvalues.t)).toEqual(texts.map(general));
    expect(records[0]!.fieldvalues.t).toBe('2026-03-08T08:30:00.123456Z');
    expect(records[0]!.timestamp).toBe('2026-03-08T08:30:00.123456Z');
    expect(problems.map((p) => p.message)).toEqual([
      expect.stringContaining('1 value could not be read'),
      expect.stringContaining('3 local times fell into a daylight-saving gap'),
      expect.stringContaining('1 local time fell into the repeated hour'),
    ]);
  });

  it('reads texts in a format as parseStrptime and wallTimeToUtcMicros do, around DST changes too', () => {
    // Days of DST changes and ordinary days; formats of every kind the fast path meets.
    const days = [[2026, 3, 29], [2026, 10, 25], [2026, 3, 8], [2026, 11, 1], [2026, 4, 5], [2026, 10, 4], [2026, 6, 15], [1900, 1, 1], [9999, 12, 31]] as const;
    const zones = ['UTC', 'Europe/Berlin', 'America/Chicago', 'Australia/Lord_Howe', 'Asia/Kolkata'];
    const formats = ['%d.%m.%Y %H:%M:%S', '%Y-%m-%d %H:%M:%S.%f', '%Y%m%d%H%M%S', '%m/%d/%y %I:%M %p', '%Y-%m-%dT%H:%M:%S%z', '%b %d %Y %H:%M', '%H:%M', ' %d.%m.%Y %H:%M ', '%Y-%m-%dT%H:%M:%SZ'];
    const p2 = (n: number) => String(n).padStart(2, '0');
    const month = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
    const write = (format: string, [y, mo, d]: readonly number[], h: number, mi: number, s: number, f: number) =>
      format
        .replace('%Y', String(y).padStart(4, '0'))
        .replace('%y', p2(y! % 100))
        .replace('%m', p2(mo!))
        .replace('%b', month[mo! - 1]!)
        .replace('%d', p2(d!))
        .replace('%H', p2(h))
        .replace('%I', p2(h % 12 || 12))
        .replace('%p', h < 12 ? 'AM' : 'PM')
        .replace('%M', p2(mi))
        .replace('%S', p2(s))
        .replace('%f', String(f).padStart(6, '0').slice(0, 1 + (f % 6)))
        .replace('%z', f % 3 === 0 ? '+05:30' : '-0100');
    const time = fc.tuple(fc.constantFrom(...days), fc.integer({ min: 0, max: 4 }), fc.integer({ min: 0, max: 59 }), fc.integer({ min: 0, max: 59 }), fc.integer({ min: 0, max: 999_999 }), fc.constantFrom('', '', ' ', 'x'));
    fc.assert(
      fc.property(fc.constantFrom(...zones), fc.constantFrom(...formats), fc.array(time, { minLength: 1, maxLength: 30 }), (timezone, format, times) => {
        const texts = times.map(([day, h, mi, s, f, extra]) => (extra === 'x' ? `${write(format, day, h, mi, s, f)}x` : `${extra}${write(format, day, h, mi, s, f)}${extra}`));
        const { records, problems } = convert({ field_names: 't', format, timezone }).apply(texts.map((t) => record({ t })));
        const dst = { gap: 0, overlap: 0 };
        let failed = 0;
        const general = (text: string) => {
          // An ISO UTC text is an instant already, whatever the format says.
          if (/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/.test(text.trim())) return `${text.trim().slice(0, 19)}.000000Z`;
          const wall = parseStrptime(text.trim(), format);
          if (!wall) {
            failed += 1;
            return text;
          }
          const result = wallTimeToUtcMicros(wall, timezone);
          if (result.dst) dst[result.dst] += 1;
          return isoMicros(result.micros);
        };
        expect(records.map((r) => r.fieldvalues.t)).toEqual(texts.map(general));
        expect(problems.map((p) => Number(p.message.split(' ')[0]))).toEqual([failed, dst.gap, dst.overlap].filter((n) => n > 0));
      }),
      { numRuns: 500 },
    );
  });

  it('guesses year-month-day texts as guessDateTime and wallTimeToUtcMicros do, fast reader or not', () => {
    // Two-digit fields, mostly zero-padded, sometimes not padded or padded with a space.
    const two = fc.tuple(fc.oneof(fc.integer({ min: 0, max: 99 }), fc.integer({ min: 1, max: 12 })), fc.constantFrom('0', '0', '0', '0', '', ' '));
    const text = fc
      .tuple(fc.integer({ min: 0, max: 9999 }), two, two, fc.constantFrom('T', ' ', '  ', 't', ', ', '\t', '\u00a0'), two, two, fc.option(two), fc.option(fc.integer({ min: 0, max: 99_999_999 }).map(String)), fc.constantFrom('', '', ' ', '+01:00', ' pm'))
      .map(([y, mo, d, t, h, mi, s, f, tail]) => {
        const p2 = ([n, padding]: [number, string]) => String(n).padStart(2, padding || '0').slice(padding === '' ? -1 : -2);
        const time = h[0] === 99 ? '' : `${t}${p2(h)}:${p2(mi)}${s === null ? '' : `:${p2(s)}${f === null ? '' : `.${f}`}`}`;
        return `${String(y).padStart(4, '0')}-${p2(mo)}-${p2(d)}${time}${tail}`;
      });
    fc.assert(
      fc.property(fc.constantFrom('UTC', 'Europe/Berlin', 'America/Chicago'), fc.array(text, { minLength: 1, maxLength: 10 }), (timezone, texts) => {
        const { records } = convert({ field_names: 't', timezone }).apply(texts.map((t) => record({ t })));
        const general = (value: string) => {
          const wall = guessDateTime(value);
          return wall ? isoMicros(wallTimeToUtcMicros(wall, timezone).micros) : value;
        };
        expect(records.map((r) => r.fieldvalues.t)).toEqual(texts.map(general));
      }),
      { numRuns: 1000 },
    );
  });

  it('accepts field_names as a list and field_name as an alias', () => {
    const list = convert({ field_names: ['a', 'b'], unit: 's' }).apply([record({ a: 0, b: 60, c: 1 })]).records[0]!.fieldvalues;
    expect(list).toEqual({ a: '1970-01-01T00:00:00.000000Z', b: '1970-01-01T00:01:00.000000Z', c: 1 });
    expect(convert({ field_name: 'a', unit: 's' }).apply([record({ a: 0 })]).records[0]!.fieldvalues.a).toBe('1970-01-01T00:00:00.000000Z');
  });

  it('leaves unconvertible values as they were and reports one problem per batch with a count', () => {
    const input = [record({ t: 'garbage' }), record({ t: '2026-01-05 07:00' }), record({ t: 42 }), record({ t: null })];
    const { records, problems } = convert({ field_names: 't', format: '%Y-%m-%d %H:%M' }).apply(input);
    expect(records.map((r) => r.fieldvalues.t)).toEqual(['garbage', '2026-01-05T07:00:00.000000Z', 42, null]);
    expect(problems).toEqual([expect.objectContaining({ level: 'warning', message: '2 values could not be read as the format %Y-%m-%d %H:%M and were left unchanged (e.g. t="garbage").' })]);
    // With its code, the words around the format nested (issue 57): the console writes it all in German.
    expect(problems[0]!.said).toMatchObject({ code: 'timestamps.unreadable_many', params: { count: 2, how: { code: 'timestamps.as_format', params: { format: '%Y-%m-%d %H:%M' } } } });
    expect(input[1]!.fieldvalues.t).toBe('2026-01-05 07:00');
  });

  it('does not guess epoch numbers without a unit', () => {
    const { records, problems } = convert({ field_names: 't' }).apply([record({ t: 1_767_592_800 })]);
    expect(records[0]!.fieldvalues.t).toBe(1_767_592_800);
    expect(problems).toHaveLength(1);
  });

  it('warns once when no record has the column', () => {
    const { problems } = convert({ field_names: 'time' }).apply([record({ t: 1 }), record({ t: 2 })]);
    expect(problems).toEqual([expect.objectContaining({ level: 'warning', message: 'No record has the column time: check field_names.' })]);
    expect(convert({ field_names: 'time' }).apply([]).problems).toEqual([]);
  });

  it('moves the record timestamp along when it was taken from the first converted column', () => {
    const transform = convert({ field_names: ['start', 'end'], format: '%Y-%m-%d %H:%M', timezone: 'Europe/Berlin' });
    const [fromColumn, fromCapture, fromSecond] = transform.apply([
      record({ start: '2026-01-05 07:00', end: '2026-01-05 08:00' }, { timestamp: '2026-01-05 07:00' }),
      record({ start: '2026-01-05 09:00' }),
      record({ start: '2026-01-05 07:00', end: '2026-01-05 08:00' }, { timestamp: '2026-01-05 08:00' }),
    ]).records;
    expect(fromColumn!.timestamp).toBe('2026-01-05T06:00:00.000000Z');
    expect(fromCapture!.timestamp).toBe(record({}).timestamp);
    expect(fromSecond!.timestamp).toBe('2026-01-05 08:00');
  });

  describe('DST edges', () => {
    const edges = (timezone: string, values: string[]) => convert({ field_names: 't', format: '%Y-%m-%d %H:%M', timezone }).apply(values.map((t) => record({ t })));

    it('Europe/Berlin: gap moved forward, overlap read as the first occurrence, both reported', () => {
      const { records, problems } = edges('Europe/Berlin', ['2026-03-29 02:30', '2026-10-25 02:30', '2026-10-25 03:30']);
      expect(records.map((r) => r.fieldvalues.t)).toEqual(['2026-03-29T01:30:00.000000Z', '2026-10-25T00:30:00.000000Z', '2026-10-25T02:30:00.000000Z']);
      expect(problems.map((p) => p.message)).toEqual([
        '1 local time fell into a daylight-saving gap in Europe/Berlin and was moved forward by the gap.',
        '1 local time fell into the repeated hour at the end of daylight saving in Europe/Berlin and was read as the first occurrence.',
      ]);
    });

    it('America/Chicago: the same policy', () => {
      const { records, problems } = edges('America/Chicago', ['2026-03-08 02:30', '2026-11-01 01:30', '2026-11-01 01:30']);
      expect(records.map((r) => r.fieldvalues.t)).toEqual(['2026-03-08T08:30:00.000000Z', '2026-11-01T06:30:00.000000Z', '2026-11-01T06:30:00.000000Z']);
      expect(problems.map((p) => p.message)).toEqual([expect.stringContaining('1 local time fell into a daylight-saving gap'), expect.stringContaining('2 local times fell into the repeated hour')]);
    });

    it('UTC has no DST problems', () => {
      expect(edges('UTC', ['2026-03-29 02:30', '2026-10-25 02:30']).problems).toEqual([]);
    });
  });
});
