/** Feeding a file to the spreadsheet parser as the file receiver does, for the encoding tests. */
import { SpreadsheetParserSchema } from '../../shared/config/schema.js';
import {
  type ParsedRow,
  type SpreadsheetParser,
  type SpreadsheetState,
  createSpreadsheetParser,
} from '../agent/parsers/spreadsheet/spreadsheet-parser.js';

export const parserWith = (fileEncoding: string, parse: Record<string, unknown> = {}) =>
  createSpreadsheetParser(
    SpreadsheetParserSchema.parse({ parser_name: 'p', parser_type: 'spreadsheet', file_encoding: fileEncoding, options: { parse } }),
  );

/** Feeds a file like the receiver: chunks from the persisted offset, the state through JSON (a restart). */
export function feed(
  parser: SpreadsheetParser,
  file: Buffer,
  cut: (offset: number) => number,
): { rows: ParsedRow[]; offset: number; state: SpreadsheetState } {
  let offset = 0;
  let state = parser.initialState();
  const rows: ParsedRow[] = [];
  for (let guard = 0; offset < file.length && guard < 10_000; guard += 1) {
    let end = Math.min(file.length, cut(offset));
    let result = parser.parseChunk(file.subarray(offset, end), state, end === file.length);
    // A record longer than the chunk: read a bigger one, as the receiver does.
    while (result.consumedBytes === 0 && end < file.length) {
      end = Math.min(file.length, end + (end - offset) + 1);
      result = parser.parseChunk(file.subarray(offset, end), state, end === file.length);
    }
    rows.push(...result.rows);
    offset += result.consumedBytes;
    state = JSON.parse(JSON.stringify(result.state)) as SpreadsheetState;
    if (result.consumedBytes === 0) break;
  }
  return { rows, offset, state };
}

export const whole = (parser: SpreadsheetParser, file: Buffer) => feed(parser, file, () => file.length);
