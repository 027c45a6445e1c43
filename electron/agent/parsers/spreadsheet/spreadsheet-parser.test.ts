import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { SpreadsheetParserSchema } from '../../../../shared/config/schema.js';
import { isoMicros } from '../../../../shared/records/record.js';
import { parseStrptime } from '../../time/strptime.js';
import { wallTimeToUtcMicros } from '../../time/zoned.js';
import { cellValue } from './cell-values.js';
import { type ChunkResult, checkSpreadsheetState, createSpreadsheetParser, readSpreadsheetState } from './spreadsheet-parser.js';

type Input = z.input<typeof SpreadsheetParserSchema>;
type ParseOptions = NonNullable<NonNullable<Input['options']>['parse']>;

const parserFor = (parse: ParseOptions = {}, extra: Record<string, unknown> = {}) =>
  createSpreadsheetParser(SpreadsheetParserSchema.parse({ parser_name: 'p', parser_type: 'spreadsheet', ...extra, options: { ...((extra.options as object) ?? {}), parse } }));

/** Parses a whole file in one final chunk. */
function parseAll(content: string | Buffer, parse: ParseOptions = {}, extra: Record<string, unknown> = {}): ChunkResult {
  const parser = parserFor(parse, extra);
  return parser.parseChunk(typeof content === 'string' ? Buffer.from(content) : content, parser.initialState(), true);
}
const values = (result: ChunkResult) => result.rows.map((r) => r.fieldvalues);

describe('spreadsheet parser: cells and values', () => {
  it('types numbers, booleans, empty cells and text per cell', () => {
    const result = parseAll('id,temp,ok,note,code\n1,-3.5,true,,007\n2,1e3,False,hot,42\n');
    expect(values(result)).toEqual([
      { id: 1, temp: -3.5, ok: true, note: null, code: '007' },
      { id: 2, temp: 1000, ok: false, note: 'hot', code: 42 },
    ]);
    expect(result.rows.map((r) => r.line)).toEqual([2, 3]);
    expect(result.rows.every((r) => r.timestampMicros === null)).toBe(true);
  });

  it('reads quoted cells with separators, newlines and escaped quotes', () => {
    const result = parseAll('a,b\n"x, y","say ""hi""\nsecond line"\n3,4\n');
    expect(values(result)).toEqual([{ a: 'x, y', b: 'say "hi"\nsecond line' }, { a: 3, b: 4 }]);
    expect(result.rows.map((r) => r.line)).toEqual([2, 4]);
  });

  it('reads CRLF files and a last line without newline', () => {
    const result = parseAll('a,b\r\n1,2\r\n3,4');
    expect(values(result)).toEqual([{ a: 1, b: 2 }, { a: 3, b: 4 }]);
    expect(result.consumedBytes).toBe(13);
  });

  it('trims header names and numbers duplicates', () => {
    expect(values(parseAll(' t , v ,v\n1,2,3\n'))).toEqual([{ t: 1, v: 2, v_2: 3 }]);
  });

  it('skips blank lines without counting them as bad', () => {
    const result = parseAll('a\n\n1\n\r\n2\n');
    expect(values(result)).toEqual([{ a: 1 }, { a: 2 }]);
    expect(result.rows.map((r) => r.line)).toEqual([3, 5]);
    expect(result.badLines).toEqual([]);
  });

  it('splits on a configured separator, tab included (also typed as \\t)', () => {
    expect(values(parseAll('a;b\n1;x\n', { separator: ';' }))).toEqual([{ a: 1, b: 'x' }]);
    expect(values(parseAll('a\tb\n1\t"x\ty"\n', { separator: '\t' }))).toEqual([{ a: 1, b: 'x\ty' }]);
    expect(values(parseAll('a\tb\n1\t2\n', { separator: '\\t' }))).toEqual([{ a: 1, b: 2 }]);
  });

  it('takes the header from the configured row and skips the rows before it', () => {
    const result = parseAll('Machine export v2\nsite: Plant 1\ntime,value\n10:00,1\n', { header: 2 });
    expect(values(result)).toEqual([{ time: '10:00', value: 1 }]);
    expect(result.rows[0]!.line).toBe(4);
  });
});

describe('spreadsheet parser: time stamps', () => {
  it('reads parse_timestamps in localtz and sets the row time stamp from the first of them', () => {
    const result = parseAll('start,end,v\n2026-01-05 07:00:00,05.01.2026 08:00,1\n', {
      parse_timestamps: [
        { field_name: 'start', format: '%Y-%m-%d %H:%M:%S' },
        { field_name: 'end', format: '%d.%m.%Y %H:%M' },
      ],
    }, { options: { localtz: 'Europe/Berlin' } });
    expect(values(result)).toEqual([{ start: '2026-01-05T06:00:00.000000Z', end: '2026-01-05T07:00:00.000000Z', v: 1 }]);
    expect(result.rows[0]!.timestampMicros).toBe(BigInt(Date.UTC(2026, 0, 5, 6)) * 1000n);
  });

  it('reads in UTC when localtz is not set, and reads Python-style formats like %b %d %Y', () => {
    const result = parseAll('day\nJan 1 2000\n', { parse_timestamps: [{ field_name: 'day', format: '%b %d %Y' }] });
    expect(values(result)).toEqual([{ day: '2000-01-01T00:00:00.000000Z' }]);
  });

  it('guesses parse_dates with dayfirst and uses them for the row time stamp when there are no parse_timestamps', () => {
    const result = parseAll('d,v\n01/02/2024 13:00,1\n2024-02-03T04:05:06Z,2\n', { parse_dates: ['d'], dayfirst: true });
    expect(values(result)).toEqual([
      { d: '2024-02-01T13:00:00.000000Z', v: 1 },
      { d: '2024-02-03T04:05:06.000000Z', v: 2 },
    ]);
    expect(result.rows[1]!.timestampMicros).toBe(BigInt(Date.UTC(2024, 1, 3, 4, 5, 6)) * 1000n);
    expect(values(parseAll('d\n01/02/2024\n', { parse_dates: ['d'] }))).toEqual([{ d: '2024-01-02T00:00:00.000000Z' }]);
  });

  it('reads an empty time stamp cell as null, not as a bad line', () => {
    const result = parseAll('t,v\n,1\n', { parse_timestamps: [{ field_name: 't', format: '%Y' }] });
    expect(values(result)).toEqual([{ t: null, v: 1 }]);
    expect(result.rows[0]!.timestampMicros).toBeNull();
    expect(result.badLines).toEqual([]);
  });

  it('handles DST edges in localtz and counts them', () => {
    const result = parseAll('t\n2026-03-29 02:30\n2026-10-25 02:30\n2026-10-25 03:30\n', { parse_timestamps: [{ field_name: 't', format: '%Y-%m-%d %H:%M' }] }, { options: { localtz: 'Europe/Berlin' } });
    expect(values(result).map((v) => v.t)).toEqual(['2026-03-29T01:30:00.000000Z', '2026-10-25T00:30:00.000000Z', '2026-10-25T02:30:00.000000Z']);
    expect(result.dstAdjusted).toEqual({ gap: 1, overlap: 1 });
  });

  it('stops with a clear fatal message when a time stamp column is not in the header', () => {
    const result = parseAll('time,v\n1,2\n', { parse_timestamps: [{ field_name: 'Time', format: '%Y' }] });
    expect(result.fatal).toMatchObject({ line: 1, message: expect.stringMatching(/"Time" is not in the header.*time, v/) });
    expect(result.consumedBytes).toBe(0);
    expect(result.state.header).toBeNull();
  });
});

describe('spreadsheet parser: counter', () => {
  it('adds a counter column that continues across chunks', () => {
    const parser = parserFor({}, { options: { counter: true } });
    const first = parser.parseChunk(Buffer.from('a\n1\n2\n'), parser.initialState(), false);
    const second = parser.parseChunk(Buffer.from('3\n'), JSON.parse(JSON.stringify(first.state)), false);
    expect([...values(first), ...values(second)]).toEqual([{ a: 1, counter: 1 }, { a: 2, counter: 2 }, { a: 3, counter: 3 }]);
  });

  it('adds no counter column unless asked', () => {
    expect(values(parseAll('a\n1\n'))).toEqual([{ a: 1 }]);
  });
});

describe('spreadsheet parser: bad lines', () => {
  const file = 'a,b\n1,2\n3\n4,5,6\n7,8\n';
  const timeFile = 't,v\n2026-01-01,1\nnot a date,2\n2026-01-03,3\n';
  const timeOptions: ParseOptions = { parse_timestamps: [{ field_name: 't', format: '%Y-%m-%d' }] };

  it('warn (the default) skips bad lines and lists them with the reason', () => {
    const result = parseAll(file);
    expect(values(result)).toEqual([{ a: 1, b: 2 }, { a: 7, b: 8 }]);
    expect(result.badLines).toMatchObject([
      { line: 3, message: 'Line 3 has 1 cells, the header has 2.' },
      { line: 4, message: 'Line 4 has 3 cells, the header has 2.' },
    ]);
    expect(result.consumedBytes).toBe(Buffer.byteLength(file));
    expect(result.fatal).toBeUndefined();
  });

  it('warn lists a time stamp that does not match its format', () => {
    const result = parseAll(timeFile, { ...timeOptions, bad_lines_action: 'warn' });
    expect(values(result).map((v) => v.v)).toEqual([1, 3]);
    expect(result.badLines).toEqual([{ line: 3, message: expect.stringContaining('"not a date" in column t does not match the format %Y-%m-%d') }]);
  });

  it('skip drops bad lines silently but counts them', () => {
    const result = parseAll(file, { bad_lines_action: 'skip' });
    expect(values(result)).toEqual([{ a: 1, b: 2 }, { a: 7, b: 8 }]);
    expect(result.badLines).toEqual([]);
    expect(result.skippedLines).toBe(2);
    expect(parseAll(timeFile, { ...timeOptions, bad_lines_action: 'skip' }).skippedLines).toBe(1);
  });

  it('error stops before the first bad line: nothing after it is read', () => {
    const result = parseAll(file, { bad_lines_action: 'error' });
    expect(values(result)).toEqual([{ a: 1, b: 2 }]);
    expect(result.fatal).toMatchObject({ line: 3, message: 'Line 3 has 1 cells, the header has 2.', said: { code: 'csv.cell_count', params: { line: 3, count: 1, header: 2 } } });
    expect(result.consumedBytes).toBe('a,b\n1,2\n'.length);
    expect(result.state.rowsSeen).toBe(2);
  });

  it('error on a bad time stamp, and the same line stops again when read again', () => {
    const parser = parserFor({ ...timeOptions, bad_lines_action: 'error' });
    const bytes = Buffer.from(timeFile);
    const first = parser.parseChunk(bytes, parser.initialState(), true);
    expect(first.fatal?.line).toBe(3);
    const again = parser.parseChunk(bytes.subarray(first.consumedBytes), first.state, true);
    expect(again.rows).toEqual([]);
    expect(again.fatal?.line).toBe(3);
    expect(again.consumedBytes).toBe(0);
  });

  it('reports a quoted cell left open at the end of a complete file', () => {
    const result = parseAll('a,b\n1,"open\n2,3\n');
    expect(result.rows).toEqual([]);
    expect(result.badLines).toMatchObject([{ line: 2, message: expect.stringContaining('not closed') }]);
  });
});

describe('spreadsheet parser: encodings', () => {
  const text = 'name,temp\nMüller,21.5\nStraße,-3\n';
  const expected = [{ name: 'Müller', temp: 21.5 }, { name: 'Straße', temp: -3 }];

  it('skips a UTF-8 BOM and counts it in consumedBytes', () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]);
    const result = parseAll(bytes);
    expect(values(result)).toEqual(expected);
    expect(result.consumedBytes).toBe(bytes.length);
    expect(result.state.header).toEqual(['name', 'temp']);
  });

  it('reads UTF-16 LE and BE files by their BOM, whatever file_encoding says', () => {
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    const be = Buffer.from(le).swap16();
    expect(values(parseAll(le))).toEqual(expected);
    expect(parseAll(le).state.encoding).toBe('utf_16_le');
    expect(values(parseAll(be, {}, { file_encoding: 'latin1' }))).toEqual(expected);
    expect(parseAll(be).consumedBytes).toBe(be.length);
  });

  it('reads utf-16 without a BOM as little-endian', () => {
    expect(values(parseAll(Buffer.from(text, 'utf16le'), {}, { file_encoding: 'utf-16' }))).toEqual(expected);
    expect(values(parseAll(Buffer.from(Buffer.from(text, 'utf16le')).swap16(), {}, { file_encoding: 'utf-16be' }))).toEqual(expected);
  });

  it('reads latin1 files', () => {
    expect(values(parseAll(Buffer.from(text, 'latin1'), {}, { file_encoding: 'latin1' }))).toEqual(expected);
  });

  it('waits for more bytes when the file so far could still be the start of a BOM', () => {
    const parser = parserFor();
    const result = parser.parseChunk(Buffer.from([0xef, 0xbb]), parser.initialState(), false);
    expect(result.consumedBytes).toBe(0);
    expect(result.state.encoding).toBeNull();
  });

  it('keeps a broken UTF-8 byte as U+FFFD without losing the separator after it', () => {
    const bytes = Buffer.concat([Buffer.from('a,b\n'), Buffer.from([0xc3]), Buffer.from(',2\n')]);
    expect(values(parseAll(bytes))).toEqual([{ a: '\uFFFD', b: 2 }]);
  });
});

describe('spreadsheet parser: chunks', () => {
  it('leaves an incomplete last line unconsumed until the file is complete', () => {
    const parser = parserFor();
    const bytes = Buffer.from('a,b\n1,2\n3,4');
    const first = parser.parseChunk(bytes, parser.initialState(), false);
    expect(values(first)).toEqual([{ a: 1, b: 2 }]);
    expect(first.consumedBytes).toBe(8);
    const last = parser.parseChunk(bytes.subarray(8), first.state, true);
    expect(values(last)).toEqual([{ a: 3, b: 4 }]);
    expect(last.consumedBytes).toBe(3);
  });

  it('consumes nothing for a line longer than the chunk; a bigger chunk then reads it', () => {
    const parser = parserFor();
    const long = `a,b\n${'x'.repeat(5000)},1\n2,3\n`;
    const bytes = Buffer.from(long);
    const afterHeader = parser.parseChunk(bytes.subarray(0, 1024), parser.initialState(), false);
    expect(afterHeader.consumedBytes).toBe(4);
    const stuck = parser.parseChunk(bytes.subarray(4, 4 + 1024), afterHeader.state, false);
    expect(stuck).toMatchObject({ consumedBytes: 0, rows: [], badLines: [] });
    const grown = parser.parseChunk(bytes.subarray(4, 4 + 8192), afterHeader.state, false);
    expect(grown.rows.map((r) => r.fieldvalues.b)).toEqual([1, 3]);
  });

  it('does not change the state object it was given', () => {
    const parser = parserFor();
    const state = parser.initialState();
    parser.parseChunk(Buffer.from('a\n1\n'), state, false);
    expect(state).toEqual(parser.initialState());
  });
});

describe('spreadsheet parser: persisted state', () => {
  it('round-trips through JSON and the state schema', () => {
    const parser = parserFor();
    const { state } = parser.parseChunk(Buffer.from('a,b\n1,2\n'), parser.initialState(), false);
    expect(readSpreadsheetState(JSON.parse(JSON.stringify(state)))).toEqual(state);
    expect(checkSpreadsheetState({ header: null, rowsSeen: -1, counter: 0, encoding: null })).toBe('rowsSeen: not a count');
    expect(() => readSpreadsheetState({ header: null, rowsSeen: 0, counter: 0, encoding: 'utf-32' })).toThrow('Invalid spreadsheet parser state: encoding: not a supported encoding');
  });
});

describe('spreadsheet parser: rows against their definition', () => {
  const ZONES = ['UTC', 'Europe/Berlin', 'America/Chicago', 'Australia/Lord_Howe'];
  const FORMATS = ['%Y-%m-%d %H:%M:%S', '%d.%m.%Y %H:%M', '%Y-%m-%dT%H:%M:%S.%f', '%Y-%m-%d %H:%M:%S%z', '%b %d %Y %H:%M'];
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  // Wall times as text, many near DST changes, some impossible, some not time stamps at all.
  const stamp = fc.record({
    year: fc.oneof(fc.constant(2026), fc.integer({ min: 1960, max: 2100 })),
    month: fc.oneof(fc.constantFrom(3, 4, 10, 11), fc.integer({ min: 1, max: 12 })),
    day: fc.integer({ min: 1, max: 31 }),
    hour: fc.oneof(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 23 })),
    minute: fc.oneof(fc.constantFrom(0, 15, 30, 45), fc.integer({ min: 0, max: 59 })),
    second: fc.integer({ min: 0, max: 59 }),
    fraction: fc.integer({ min: 0, max: 999_999 }),
    offset: fc.constantFrom('Z', '+0200', '-05:30'),
  });
  const render = (format: string, t: typeof stamp extends fc.Arbitrary<infer T> ? T : never) =>
    format
      .replace('%Y', pad(t.year, 4))
      .replace('%m', pad(t.month))
      .replace('%d', pad(t.day))
      .replace('%H', pad(t.hour))
      .replace('%M', pad(t.minute))
      .replace('%S', pad(t.second))
      .replace('%f', String(t.fraction))
      .replace('%z', t.offset)
      .replace('%b', MONTHS[t.month - 1]!);
  const cell = fc.oneof(fc.constantFrom('', '1', '-2.5', '007', 'true', 'ok', ' 12 ', '1e3'), fc.string({ unit: fc.constantFrom('a', '1', '.', '-', 'e', ' '), maxLength: 6 }));

  it('reads time stamps like parseStrptime + wallTimeToUtcMicros + isoMicros, and other cells like cellValue', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ZONES),
        fc.constantFrom(...FORMATS),
        fc.array(fc.tuple(fc.oneof({ weight: 9, arbitrary: stamp }, { weight: 1, arbitrary: fc.constantFrom('', 'x', '2026-02-30 00:00:00') }), cell), { minLength: 1, maxLength: 30 }),
        (zone, format, rows) => {
          const lines = rows.map(([time, value]) => `${typeof time === 'string' ? time : render(format, time)},${value}`);
          const result = parseAll(`t,v\n${lines.join('\n')}\n`, { parse_timestamps: [{ field_name: 't', format }] }, { options: { localtz: zone } });
          const expected: { fieldvalues: Record<string, unknown>; timestampMicros: bigint | null; line: number }[] = [];
          const dst = { gap: 0, overlap: 0 };
          let badLines = 0;
          lines.forEach((line, index) => {
            const [text, value] = [line.slice(0, line.lastIndexOf(',')), line.slice(line.lastIndexOf(',') + 1)];
            if (text.trim() === '') {
              expected.push({ fieldvalues: { t: null, v: cellValue(value) }, timestampMicros: null, line: index + 2 });
              return;
            }
            const wall = parseStrptime(text.trim(), format);
            if (!wall) {
              badLines += 1;
              return;
            }
            const zoned = wallTimeToUtcMicros(wall, zone);
            if (zoned.dst) dst[zoned.dst] += 1;
            expected.push({ fieldvalues: { t: isoMicros(zoned.micros), v: cellValue(value) }, timestampMicros: zoned.micros, line: index + 2 });
          });
          expect(result.rows).toEqual(expected);
          expect(result.dstAdjusted).toEqual(dst);
          expect(result.badLines).toHaveLength(badLines);
        },
      ),
      { numRuns: 400 },
    );
  });
});
