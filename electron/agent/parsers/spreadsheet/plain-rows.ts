/**
 * The spreadsheet parser's common case without row objects: for a chunk whose data lines are all
 * plain (no quote, a one-byte separator, as many cells as the header, readable time cells), each
 * row is handed over as the positions of its cells in the chunk's bytes (no line text is made),
 * for a caller that writes it on directly (the fused upload path: remotedatapost/fused-upload.ts).
 * Anything else in the chunk (the header not read yet, a quote, a bad line, a `counter` column,
 * pandas options, an encoding other than UTF-8, a separator beyond ASCII) makes read() decline,
 * and the caller takes spreadsheet-parser.ts's parseChunk, the reference, for the whole chunk.
 * What read() does accept it reads as parseChunk does: the same rows, offsets and state
 * (property tests: fused-upload.property.test.ts).
 */
import type { SpreadsheetParserConfig, SpreadsheetState } from './spreadsheet-parser.js';
import type { Parser } from '../../../../shared/config/schema.js';
import { isDocumentParser } from '../../../../shared/config/parsers/kinds.js';
import { readOptionsOf } from './read-options.js';
import { RecordCursor } from './record-scanner.js';
import { resolveEncoding } from './text-encoding.js';
import { createTimeStamper } from './time-columns.js';

/**
 * Epoch microseconds accepted for time cells: 1970 up to 2255, where ISO texts have the same width
 * (their order is the order of the numbers) and isoFromMicros is exact.
 */
export const MAX_PLAIN_MICROS = 8_999_999_999_999_999;

/**
 * Receives the data rows of a chunk in file order; returns false to give the chunk up. Cell `c` of
 * the row is `bytes[cellStarts[c], cellStarts[c + 1] - 1)` (UTF-8, not checked: a cell with a byte
 * above 0x7f is for the caller to decode); `cells` is the header's length.
 */
export type PlainRowVisitor = (
  bytes: Buffer,
  cellStarts: Int32Array,
  cells: number,
  line: number,
  times: Float64Array,
) => boolean;

export interface PlainChunk {
  rows: number;
  consumedBytes: number;
  state: SpreadsheetState;
}

export interface PlainRowReader {
  /** The time columns (parse_timestamps, then parse_dates), in the order of `times`. */
  readonly timeColumns: readonly string[];
  /**
   * The chunk's rows through `visit`, or null: the chunk is not plain (nothing may be kept from the
   * visits).
   */
  read(
    chunk: Buffer,
    state: SpreadsheetState,
    final: boolean,
    visit: PlainRowVisitor,
  ): PlainChunk | null;
}

/**
 * read()'s answer, made in a function of its own: read() is compiled on stack (OSR) inside its
 * first chunk's loop, before its end ever ran; an object literal there had no type feedback yet,
 * so the optimized code left it at every chunk's end (a deoptimization per chunk).
 */
function chunkResult(
  rows: number,
  consumedBytes: number,
  header: readonly string[],
  rowsSeen: number,
  linesSeen: number,
  counter: number,
  encoding: SpreadsheetState['encoding'],
): PlainChunk {
  const state = { header: [...header], rowsSeen, linesSeen, counter, encoding };
  return { rows, consumedBytes, state };
}

/** A reader for this parser configuration, or null when its files never take this path. */
export function createPlainRowReader(any: SpreadsheetParserConfig | Parser): PlainRowReader | null {
  if (isDocumentParser(any)) return null;
  const config = any;
  const options = readOptionsOf(config);
  if (options.general || options.separator.length !== 1 || config.options?.counter) return null;
  const separator = options.separator.charCodeAt(0);
  // A separator of one byte in UTF-8 (the cells are found by bytes).
  if (separator >= 0x80) return null;
  const stamper = createTimeStamper(options.parse, config.options?.localtz ?? 'UTC');
  const timeColumns = stamper.columns.map((column) => column.name);
  const times = new Float64Array(timeColumns.length);
  let cellStarts = new Int32Array(64);
  let lastHeader: string[] | null = null;
  // A typed array, filled in place: its map never changes, so read()'s optimized code stays valid
  // from file to file (a new array per header made V8 deoptimize and compile read() again).
  const timeIndexes = new Int32Array(timeColumns.length);

  function read(
    chunk: Buffer,
    previous: SpreadsheetState,
    final: boolean,
    visit: PlainRowVisitor,
  ): PlainChunk | null {
    // Read here, not after the loop: see chunkResult.
    const { header, encoding: encodingName } = previous;
    if (header === null || encodingName === null || header.includes('__proto__')) return null;
    const encoding = resolveEncoding(encodingName);
    if (encoding.decoder !== 'utf8' || encoding.width !== 1) return null;
    if (header !== lastHeader) {
      for (let t = 0; t < timeColumns.length; t += 1)
        timeIndexes[t] = header.indexOf(timeColumns[t]!);
      lastHeader = header;
    }
    if (timeIndexes.includes(-1)) return null;
    const count = header.length;
    if (cellStarts.length < count + 1) cellStarts = new Int32Array(count + 1);
    const cursor = new RecordCursor(chunk, 0, {
      separator: [separator],
      width: 1,
      littleEndian: encoding.littleEndian,
      final,
      leadByte: encoding.leadByte,
    });
    let { rowsSeen, linesSeen, counter } = previous;
    let rows = 0;
    let consumedBytes = 0;
    while (cursor.next()) {
      const line = linesSeen + 1;
      const start = cursor.start;
      const end = cursor.contentEnd;
      if (end > start) {
        if (cursor.mayHaveQuote) return null;
        // Where the cells start (cellStarts[count] is one past the line's end, for the last cell's
        // end). The separator is ASCII: no byte of a UTF-8 sequence can be taken for it.
        let cells = 1;
        for (let i = start; i < end && cells <= count; i += 1)
          if (chunk[i] === separator) cellStarts[cells++] = i + 1;
        if (cells !== count) return null;
        cellStarts[0] = start;
        cellStarts[count] = end + 1;
        for (let t = 0; t < timeIndexes.length; t += 1) {
          const c = timeIndexes[t]!;
          const micros = stamper.instantAt(t, chunk, cellStarts[c]!, cellStarts[c + 1]! - 1);
          // A bad time (a bad line), or one beyond what the fused writers take: the reference
          // decides.
          if (micros !== micros) times[t] = micros;
          else if (!Number.isSafeInteger(micros) || micros < 0 || micros > MAX_PLAIN_MICROS)
            return null;
          else times[t] = micros;
        }
        if (!visit(chunk, cellStarts, count, line, times)) return null;
        rows += 1;
        rowsSeen += 1;
        counter += 1;
      }
      linesSeen += cursor.newlines;
      consumedBytes = cursor.end;
    }
    return chunkResult(rows, consumedBytes, header, rowsSeen, linesSeen, counter, encodingName);
  }

  return { timeColumns, read };
}
