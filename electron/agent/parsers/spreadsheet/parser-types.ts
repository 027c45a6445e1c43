/**
 * The spreadsheet parser's vocabulary (its state, rows and chunk results), in a module of its own
 * so that the fast path, the general path (options-parser.ts) and the time columns share it without
 * importing each other (no import circles, decision 0054).
 */
import { lookupEncoding } from '../../../../shared/config/encodings.js';
import type { FieldValue } from '../../../../shared/records/record.js';
import type { AgentMessage } from '../../../../shared/config/message.js';

/**
 * Why a line is bad: in English (message) and, where the parser says it by code, with its code
 * (said).
 */
export interface LineProblem {
  line: number;
  message: string;
  said?: AgentMessage;
}

/**
 * Per-file parser state; JSON-serializable, persisted together with the file's byte offset. Read
 * it with readSpreadsheetState when it comes back from storage or another thread (a trust
 * boundary).
 */
export interface SpreadsheetState {
  /** Column names once the header row has been read. */
  header: string[] | null;
  /** Non-blank records read so far (rows before the header, the header, data and bad lines). */
  rowsSeen: number;
  /** Physical lines read so far, for line numbers (quoted cells may hold newlines). */
  linesSeen: number;
  /** Data rows produced so far: the last value of the `counter` column. */
  counter: number;
  /**
   * Python codec name decided at the start of the file (byte order mark or file_encoding); null
   * before that. Earlier versions stored utf-8, utf-16le, utf-16be or latin1: aliases of the same.
   */
  encoding: string | null;
}

const isCount = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;

/**
 * A stored state read into its shape (only its own keys; linesSeen 0 when a state of an older
 * build has none), or what is wrong with it. Hand-written, not a schema: every chunk's state
 * passes here, and the parse threads start without zod (spreadsheet-state.property.test.ts holds
 * it to the schema it replaced).
 */
export function checkSpreadsheetState(value: unknown): SpreadsheetState | string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'not an object';
  const { header, rowsSeen, linesSeen = 0, counter, encoding } = value as Record<string, unknown>;
  if (header !== null && !(Array.isArray(header) && header.every((name) => typeof name === 'string')))
    return 'header: not a list of names or null';
  if (!isCount(rowsSeen)) return 'rowsSeen: not a count';
  if (!isCount(linesSeen)) return 'linesSeen: not a count';
  if (!isCount(counter)) return 'counter: not a count';
  if (encoding !== null && (typeof encoding !== 'string' || lookupEncoding(encoding) === undefined))
    return 'encoding: not a supported encoding';
  const names = header === null ? null : [...(header as string[])];
  return { header: names, rowsSeen, linesSeen, counter, encoding };
}

/** checkSpreadsheetState, throwing what is wrong. */
export function readSpreadsheetState(value: unknown): SpreadsheetState {
  const state = checkSpreadsheetState(value);
  if (typeof state === 'string') throw new Error(`Invalid spreadsheet parser state: ${state}`);
  return state;
}

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
  badLines: LineProblem[];
  /** Lines skipped under bad_lines_action skip (not listed, only counted for a summary). */
  skippedLines: number;
  /** Local times that fell into a DST gap (moved forward) or overlap (first occurrence taken). */
  dstAdjusted: { gap: number; overlap: number };
  /** Bytes of complete records (BOM included); the caller advances its offset by this much. */
  consumedBytes: number;
  state: SpreadsheetState;
  /**
   * Set under bad_lines_action error, or for a bad option: nothing at or after this line was read.
   */
  fatal?: LineProblem;
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
