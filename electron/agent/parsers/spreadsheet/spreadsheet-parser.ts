/**
 * The `spreadsheet` parser for CSV: turns chunks of file bytes into rows, resumably. The caller
 * keeps a byte offset and a small JSON state per file; each call parses the complete records of
 * one chunk and says how many bytes they took, so an appended file continues exactly where it
 * stopped and memory is bounded by the chunk size, whatever the size of the file.
 */
import { z } from 'zod';
import type { SpreadsheetParserSchema } from '../../../../shared/config/schema.js';
import { type FieldValue, isoMicros } from '../../../../shared/records/record.js';
import { guessDateTime, parseStrptime } from '../../time/strptime.js';
import type { WallTime } from '../../time/wall-time.js';
import { wallTimeToUtcMicros } from '../../time/zoned.js';
import { cellValue, columnNames } from './cell-values.js';
import { scanRecords, splitCells } from './record-scanner.js';
import { decodeBytes, detectEncoding, separatorUnits, unitWidth } from './text-encoding.js';

export type SpreadsheetParserConfig = z.infer<typeof SpreadsheetParserSchema>;

/**
 * Per-file parser state; JSON-serializable, persisted together with the file's byte offset. Parse
 * it with this schema when it comes back from storage (a trust boundary).
 */
export const SpreadsheetStateSchema = z.object({
  /** Column names once the header row has been read. */
  header: z.array(z.string()).nullable(),
  /** Non-blank records read so far (rows before the header, the header, data and bad lines). */
  rowsSeen: z.number().int().min(0),
  /** Physical lines read so far, for line numbers (quoted cells may hold newlines). */
  linesSeen: z.number().int().min(0).default(0),
  /** Data rows produced so far: the last value of the `counter` column. */
  counter: z.number().int().min(0),
  /** Decided at the start of the file (byte order mark or file_encoding); null before that. */
  encoding: z.enum(['utf-8', 'utf-16le', 'utf-16be', 'latin1']).nullable(),
});
export type SpreadsheetState = z.infer<typeof SpreadsheetStateSchema>;

/** One data row. */
export interface ParsedRow {
  fieldvalues: Record<string, FieldValue>;
  /** From the first parse_timestamps column (else the first parse_dates column); null if none. */
  timestampMicros: bigint | null;
  /** 1-based physical line in the file where the row starts. */
  line: number;
}

/** What one call made of a chunk. */
export interface ChunkResult {
  rows: ParsedRow[];
  /** Lines skipped under bad_lines_action warn, with the reason. */
  badLines: { line: number; message: string }[];
  /** Lines skipped under bad_lines_action skip (not listed, only counted for a summary). */
  skippedLines: number;
  /** Local times that fell into a DST gap (moved forward) or overlap (first occurrence taken). */
  dstAdjusted: { gap: number; overlap: number };
  /** Bytes of complete records (BOM included); the caller advances its offset by this much. */
  consumedBytes: number;
  state: SpreadsheetState;
  /** Set under bad_lines_action error, or for a bad option: nothing at or after this line was read. */
  fatal?: { line: number; message: string };
}

/** A configured parser: pure functions over bytes and state, no I/O. */
export interface SpreadsheetParser {
  initialState(): SpreadsheetState;
  /**
   * Parses the complete records of `chunk`, which holds file bytes from the persisted offset on.
   * Without `final`, an incomplete last line is left for the next call. When consumedBytes is 0,
   * no record ended in the chunk: if the chunk was as long as the caller's read size, the line is
   * longer than a chunk and the caller must read a bigger chunk (e.g. double it, up to a limit of
   * its choosing); otherwise it waits for the file to grow. A line is never cut in two.
   */
  parseChunk(chunk: Buffer, state: SpreadsheetState, final: boolean): ChunkResult;
}

interface TimeColumn {
  name: string;
  read: (text: string) => WallTime | null;
  describe: string;
}

/** Separator from config; the two characters `\t` typed literally mean a tab too. */
function separatorOf(config: SpreadsheetParserConfig): string {
  const separator = config.options?.parse?.separator ?? ',';
  return separator === '\\t' ? '\t' : separator;
}

/** Creates a parser for one spreadsheet parser configuration. */
export function createSpreadsheetParser(config: SpreadsheetParserConfig): SpreadsheetParser {
  const parse = config.options?.parse ?? {};
  const separator = separatorOf(config);
  const headerIndex = parse.header ?? 0;
  const badLinesAction = parse.bad_lines_action ?? 'warn';
  const timeZone = config.options?.localtz ?? 'UTC';
  const withCounter = config.options?.counter ?? false;
  const dayfirst = parse.dayfirst ?? false;

  const timeColumns: TimeColumn[] = [
    ...(parse.parse_timestamps ?? []).map((ts) => ({ name: ts.field_name, read: (text: string) => parseStrptime(text, ts.format), describe: `the format ${ts.format}` })),
    ...(parse.parse_dates ?? [])
      .filter((name) => !(parse.parse_timestamps ?? []).some((ts) => ts.field_name === name))
      .map((name) => ({ name, read: (text: string) => guessDateTime(text, { dayfirst }), describe: 'any known date format' })),
  ];

  function initialState(): SpreadsheetState {
    return { header: null, rowsSeen: 0, linesSeen: 0, counter: 0, encoding: null };
  }

  function parseChunk(chunk: Buffer, previous: SpreadsheetState, final: boolean): ChunkResult {
    const state: SpreadsheetState = { ...previous, header: previous.header && [...previous.header] };
    const result: ChunkResult = { rows: [], badLines: [], skippedLines: 0, dstAdjusted: { gap: 0, overlap: 0 }, consumedBytes: 0, state };
    let from = 0;
    if (state.encoding === null) {
      if (chunk.length === 0) return result;
      const detected = detectEncoding(chunk, config.file_encoding, final);
      if (!detected) return result;
      state.encoding = detected.encoding;
      from = detected.bomLength;
      result.consumedBytes = from;
    }
    const encoding = state.encoding;
    const width = unitWidth(encoding);
    const scan = scanRecords(chunk, from, separatorUnits(separator, encoding), width, encoding !== 'utf-16be', final);

    for (const record of scan.records) {
      const line = state.linesSeen + 1;
      const text = decodeBytes(chunk, record.start, record.contentEnd, encoding);
      const bad = (message: string): boolean => {
        if (badLinesAction === 'error') {
          result.fatal = { line, message };
          return true;
        }
        if (badLinesAction === 'warn') result.badLines.push({ line, message });
        else result.skippedLines += 1;
        return false;
      };
      if (text.length === 0) {
        // Blank lines are not rows (pandas skip_blank_lines), and not bad either.
        state.linesSeen += record.newlines;
        result.consumedBytes = record.end;
        continue;
      }
      const cells = splitCells(text, separator);
      if (state.header === null) {
        if (state.rowsSeen === headerIndex) {
          const header = columnNames(cells);
          const missing = timeColumns.find((column) => !header.includes(column.name));
          if (missing) {
            // A bad option, not a bad line: stop before the header so a fixed config reads it again.
            result.fatal = { line, message: `The time stamp column "${missing.name}" is not in the header (line ${line}). Columns: ${header.join(', ')}.` };
            return result;
          }
          state.header = header;
        }
      } else if (record.unterminatedQuote) {
        if (bad(`Line ${line}: a quoted cell is not closed before the end of the file.`)) return result;
      } else if (cells.length !== state.header.length) {
        if (bad(`Line ${line} has ${cells.length} cells, the header has ${state.header.length}.`)) return result;
      } else {
        const row = buildRow(state.header, cells, line, result);
        if (typeof row === 'string') {
          if (bad(row)) return result;
        } else {
          state.counter += 1;
          if (withCounter) row.fieldvalues.counter = state.counter;
          result.rows.push(row);
        }
      }
      state.rowsSeen += 1;
      state.linesSeen += record.newlines;
      result.consumedBytes = record.end;
    }
    return result;
  }

  /** A row, or the message of why its line is bad. */
  function buildRow(header: string[], cells: string[], line: number, result: ChunkResult): ParsedRow | string {
    const fieldvalues: Record<string, FieldValue> = {};
    for (let c = 0; c < header.length; c += 1) fieldvalues[header[c]!] = cellValue(cells[c]!);
    let timestampMicros: bigint | null = null;
    let first = true;
    for (const column of timeColumns) {
      const text = cells[header.indexOf(column.name)]!;
      if (text.trim() === '') {
        // A missing time is a missing value (null), as pandas reads it (NaT), not a bad line.
        fieldvalues[column.name] = null;
      } else {
        const wall = column.read(text.trim());
        if (!wall) return `Line ${line}: "${text}" in column ${column.name} does not match ${column.describe}.`;
        const zoned = wallTimeToUtcMicros(wall, timeZone);
        if (zoned.dst) result.dstAdjusted[zoned.dst] += 1;
        fieldvalues[column.name] = isoMicros(zoned.micros);
        if (first) timestampMicros = zoned.micros;
      }
      first = false;
    }
    return { fieldvalues, timestampMicros, line };
  }

  return { initialState, parseChunk };
}
