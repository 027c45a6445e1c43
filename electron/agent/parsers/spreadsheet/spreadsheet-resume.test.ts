import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SpreadsheetParserSchema } from '../../../../shared/config/schema.js';
import { type ParsedRow, type SpreadsheetParser, type SpreadsheetState, createSpreadsheetParser } from './spreadsheet-parser.js';

const parser = createSpreadsheetParser(
  SpreadsheetParserSchema.parse({
    parser_name: 'p',
    parser_type: 'spreadsheet',
    options: { counter: true, localtz: 'Europe/Berlin', parse: { parse_timestamps: [{ field_name: 'time', format: '%Y-%m-%d %H:%M:%S' }] } },
  }),
);

// Small but nasty: BOM, CRLF and LF, quoted separators, quoted newlines, escaped quotes,
// multi-byte characters, a blank line, a bad line and no newline at the end.
const FILE = Buffer.concat([
  Buffer.from([0xef, 0xbb, 0xbf]),
  Buffer.from(
    'time,name,value\r\n' +
      '2026-03-29 01:59:00,"Müller, K.",1.5\r\n' +
      '2026-03-29 02:30:00,"two\nlines ""quoted""",-2\n' +
      '\n' +
      'broken line\n' +
      '2026-10-25 02:30:00,Straße,007\r\n' +
      '2026-10-25 03:30:00,€uro,1e3',
  ),
]);

interface Outcome {
  rows: ParsedRow[];
  badLines: { line: number; message: string }[];
  state: SpreadsheetState;
  offset: number;
}

/** Feeds the file like a receiver does: chunks start at the persisted offset; state goes through JSON. */
function feed(p: SpreadsheetParser, file: Buffer, cuts: number[]): Outcome {
  const outcome: Outcome = { rows: [], badLines: [], state: p.initialState(), offset: 0 };
  const ends = [...new Set(cuts)].sort((a, b) => a - b);
  for (const end of [...ends, file.length]) {
    if (end < outcome.offset) continue;
    const final = end === file.length;
    const result = p.parseChunk(file.subarray(outcome.offset, end), outcome.state, final);
    outcome.rows.push(...result.rows);
    outcome.badLines.push(...result.badLines);
    outcome.offset += result.consumedBytes;
    outcome.state = JSON.parse(JSON.stringify(result.state)) as SpreadsheetState;
  }
  return outcome;
}

describe('spreadsheet parser: resuming across chunk boundaries', () => {
  const whole = feed(parser, FILE, []);

  it('reads the reference file as expected in one chunk', () => {
    expect(whole.rows.map((r) => r.fieldvalues)).toEqual([
      { time: '2026-03-29T00:59:00.000000Z', name: 'Müller, K.', value: 1.5, counter: 1 },
      { time: '2026-03-29T01:30:00.000000Z', name: 'two\nlines "quoted"', value: -2, counter: 2 },
      { time: '2026-10-25T00:30:00.000000Z', name: 'Straße', value: '007', counter: 3 },
      { time: '2026-10-25T02:30:00.000000Z', name: '€uro', value: 1000, counter: 4 },
    ]);
    expect(whole.rows.map((r) => r.line)).toEqual([2, 3, 7, 8]);
    expect(whole.badLines.map((b) => b.line)).toEqual([6]);
    expect(whole.offset).toBe(FILE.length);
  });

  it('gives the same rows when cut once at every byte position', () => {
    for (let cut = 0; cut <= FILE.length; cut += 1) {
      const split = feed(parser, FILE, [cut]);
      expect(split.rows, `cut at ${cut}`).toEqual(whole.rows);
      expect(split.badLines, `cut at ${cut}`).toEqual(whole.badLines);
      expect(split.offset).toBe(FILE.length);
    }
  });

  it('gives the same rows for any split into random chunks (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: FILE.length }), { maxLength: 12 }), (cuts) => {
        const split = feed(parser, FILE, cuts);
        expect(split.rows).toEqual(whole.rows);
        expect(split.badLines).toEqual(whole.badLines);
        expect(split.state).toEqual(whole.state);
      }),
      { numRuns: 300 },
    );
  });

  it('gives the same rows for random files in UTF-16 split anywhere (property)', () => {
    const plain = createSpreadsheetParser(SpreadsheetParserSchema.parse({ parser_name: 'p', parser_type: 'spreadsheet', file_encoding: 'utf-16' }));
    const cell = fc.oneof(fc.string({ unit: fc.constantFrom('a', 'ä', ',', '"', '\n', '\r', '1', ' ', '😀') }), fc.integer().map(String));
    const table = fc.array(fc.array(cell, { minLength: 2, maxLength: 2 }), { minLength: 1, maxLength: 6 });
    const quote = (text: string) => (/[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);
    fc.assert(
      fc.property(table, fc.array(fc.nat(), { maxLength: 6 }), fc.boolean(), (rows, rawCuts, crlf) => {
        const text = ['h1,h2', ...rows.map((r) => r.map(quote).join(','))].join(crlf ? '\r\n' : '\n') + '\n';
        const file = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
        const reference = feed(plain, file, []);
        const split = feed(plain, file, rawCuts.map((c) => c % (file.length + 1)));
        expect(split.rows).toEqual(reference.rows);
        expect(split.offset).toBe(file.length);
      }),
      { numRuns: 200 },
    );
  });
});
