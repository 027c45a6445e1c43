import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SpreadsheetParserSchema } from '../../../../shared/config/schema.js';
import { findRecordCut, mergedState, splitRefusal, stateAfterCut } from './record-boundary.js';
import { type ParsedRow, type SpreadsheetParser, type SpreadsheetState, createSpreadsheetParser } from './spreadsheet-parser.js';

const plainConfig = SpreadsheetParserSchema.parse({ parser_name: 'p', parser_type: 'spreadsheet' });
const timeConfig = SpreadsheetParserSchema.parse({
  parser_name: 'p',
  parser_type: 'spreadsheet',
  options: { parse: { parse_timestamps: [{ field_name: 'time', format: '%Y-%m-%d %H:%M:%S' }] } },
});

interface Outcome {
  rows: ParsedRow[];
  bad: { line: number; message: string }[];
  state: SpreadsheetState;
  offset: number;
}

/** Reads bytes[from, to) like a receiver: chunks at the given cuts, state through JSON, `final` only at `to`. */
function feed(parser: SpreadsheetParser, bytes: Buffer, from: number, to: number, state: SpreadsheetState, final: boolean, cuts: number[] = []): Outcome {
  const outcome: Outcome = { rows: [], bad: [], state, offset: from };
  for (const end of [...cuts.filter((c) => c > from && c < to).sort((a, b) => a - b), to]) {
    if (end <= outcome.offset) continue;
    const result = parser.parseChunk(bytes.subarray(outcome.offset, end), outcome.state, final && end === to);
    outcome.rows.push(...result.rows);
    outcome.bad.push(...result.badLines);
    outcome.offset += result.consumedBytes;
    outcome.state = JSON.parse(JSON.stringify(result.state)) as SpreadsheetState;
  }
  return outcome;
}

const cell = fc.oneof(
  fc.constantFrom('1', '-2.5', 'abc', '', 'x y', 'Müller', '007', '1e3'),
  // Quoted cells with separators, quotes, LF, CRLF and lone CR inside.
  fc.array(fc.constantFrom('a', ',', '""', '\n', '\r\n', '\r', 'ß', ' '), { minLength: 0, maxLength: 6 }).map((parts) => `"${parts.join('')}"`),
);
const time = fc.constantFrom('2026-03-29 01:59:00', '2026-10-25 02:30:00', 'not a time', '"2026-01-05 06:00:00"');
const ending = fc.constantFrom('\n', '\r\n');
const line = fc.oneof(
  { weight: 8, arbitrary: fc.tuple(time, cell, cell, ending).map(([t, a, b, end]) => `${t},${a},${b}${end}`) },
  // Bad lines: too few or too many cells, and blank lines.
  { weight: 1, arbitrary: fc.tuple(cell, ending).map(([a, end]) => `${a}${end}`) },
  { weight: 1, arbitrary: fc.tuple(time, cell, cell, cell, ending).map(([t, a, b, c, end]) => `${t},${a},${b},${c}${end}`) },
  { weight: 1, arbitrary: ending },
);
const file = fc
  .tuple(fc.array(line, { minLength: 1, maxLength: 60 }), fc.constantFrom('', 'tail,without,newline', '2026-01-01 00:00:00,"open quote,1'))
  .map(([lines, last]) => Buffer.from(`time,a,b\r\n${lines.join('')}${last}`));

/** The first record boundary at or after `target`, as the parser sees it reading from `from` (consumedBytes is monotone in the chunk end). */
function parserBoundary(parser: SpreadsheetParser, bytes: Buffer, from: number, state: SpreadsheetState, target: number): number | undefined {
  const consumedTo = (end: number) => from + parser.parseChunk(bytes.subarray(from, end), state, false).consumedBytes;
  if (consumedTo(bytes.length) < target) return undefined;
  let low = target;
  let high = bytes.length;
  while (low < high) {
    const middle = Math.floor((low + high) / 2);
    if (consumedTo(middle) >= target) high = middle;
    else low = middle + 1;
  }
  return consumedTo(low);
}

describe('record boundary: cutting a file for two parse threads', () => {
  it.each([
    ['plain', plainConfig],
    ['with a time column', timeConfig],
  ])('two parts read like one thread (%s): same cut as the parser, same rows, line numbers, bad lines and final state', async (_name, config) => {
    const parser = createSpreadsheetParser(config);
    await fc.assert(
      fc.asyncProperty(file, fc.nat(), fc.nat(), fc.array(fc.nat(), { maxLength: 6 }), async (bytes, firstChunk, targetSeed, chunkSeeds) => {
        const whole = feed(parser, bytes, 0, bytes.length, parser.initialState(), true);
        // The first chunk is read by one thread (it reads the header); the split comes after it.
        const start = feed(parser, bytes, 0, 1 + (firstChunk % bytes.length), parser.initialState(), false);
        if (splitRefusal(config, start.state) !== undefined) return;
        const from = start.offset;
        if (from >= bytes.length - 1) return;
        const target = from + 1 + (targetSeed % (bytes.length - from - 1));
        const cut = await findRecordCut({
          config,
          state: start.state,
          read: async (into, at) => bytes.copy(into, 0, at, at + Math.min(into.length, 7)), // tiny pieces: records cross them
          from,
          target,
          end: bytes.length,
          maxRecordBytes: 1 << 20,
        });
        const expected = parserBoundary(parser, bytes, from, start.state, target);
        if (cut === undefined) {
          // No boundary the parser would find before the end either (or only the file's end itself).
          expect(expected === undefined || expected >= bytes.length).toBe(true);
          return;
        }
        expect(cut.offset).toBe(expected);
        const cuts = chunkSeeds.map((seed) => seed % bytes.length);
        const first = feed(parser, bytes, from, cut.offset, start.state, false, cuts);
        expect(first.offset).toBe(cut.offset); // the first part ends exactly at the cut
        const secondStart = stateAfterCut(start.state, cut);
        expect(secondStart.linesSeen).toBe(first.state.linesSeen);
        expect(secondStart.rowsSeen).toBe(first.state.rowsSeen);
        const second = feed(parser, bytes, cut.offset, bytes.length, secondStart, true, cuts);
        expect([...start.rows, ...first.rows, ...second.rows]).toEqual(whole.rows);
        expect([...start.bad, ...first.bad, ...second.bad]).toEqual(whole.bad);
        expect(second.offset).toBe(whole.offset);
        expect(mergedState(first.state, second.state)).toEqual(whole.state);
      }),
      { numRuns: 300 },
    );
  });

  it('finds a cut past quoted newlines that a line-based cut would take for record ends', async () => {
    const bytes = Buffer.from('time,a,b\n2026-01-01 00:00:00,"x\ny\nz",1\n2026-01-01 00:00:01,p,2\n');
    const parser = createSpreadsheetParser(plainConfig);
    const start = feed(parser, bytes, 0, 9, parser.initialState(), false);
    const cut = await findRecordCut({ config: plainConfig, state: start.state, read: async (into, at) => bytes.copy(into, 0, at, at + into.length), from: 9, target: 32, end: bytes.length, maxRecordBytes: 1 << 20 });
    expect(cut).toEqual({ offset: bytes.indexOf('2026-01-01 00:00:01'), lines: 3, records: 1 });
  });

  it('refuses what the parts could not read alike: counter, error action, pandas options, two-byte encodings, no header yet', () => {
    const state = { header: ['a'], rowsSeen: 1, linesSeen: 1, counter: 0, encoding: 'utf_8' };
    const configWith = (options: object, encoding?: string) => SpreadsheetParserSchema.parse({ parser_name: 'p', parser_type: 'spreadsheet', options, ...(encoding ? { file_encoding: encoding } : {}) });
    expect(splitRefusal(configWith({}), state)).toBeUndefined();
    expect(splitRefusal(configWith({ counter: true }), state)).toMatch(/counter/);
    expect(splitRefusal(configWith({ parse: { bad_lines_action: 'error' } }), state)).toMatch(/error/);
    expect(splitRefusal(configWith({ parse: { decimal: ',' } }), state)).toMatch(/pandas/);
    expect(splitRefusal(configWith({}), { ...state, encoding: 'utf_16_le' })).toMatch(/encoding/);
    expect(splitRefusal(configWith({}), { ...state, encoding: 'shift_jis' })).toMatch(/encoding/);
    expect(splitRefusal(configWith({}), { ...state, header: null })).toMatch(/header/);
  });

  it('gives up at a record longer than the limit instead of cutting inside it', async () => {
    const bytes = Buffer.from(`time,a,b\n2026-01-01 00:00:00,"${'x\n'.repeat(100)}",1\n2026-01-01 00:00:01,p,2\n`);
    const parser = createSpreadsheetParser(plainConfig);
    const start = feed(parser, bytes, 0, 9, parser.initialState(), false);
    expect(await findRecordCut({ config: plainConfig, state: start.state, read: async (into, at) => bytes.copy(into, 0, at, at + into.length), from: 9, target: 20, end: bytes.length, maxRecordBytes: 64 })).toBeUndefined();
  });
});
