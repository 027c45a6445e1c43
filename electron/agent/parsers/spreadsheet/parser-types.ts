/**
 * The spreadsheet parser's vocabulary (its state, rows and chunk results), in a module of its own
 * so that the fast path, the general path (options-parser.ts) and the time columns share it without
 * importing each other (no import circles, decision 0054).
 */
import { z } from 'zod';
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
  /**
   * Python codec name decided at the start of the file (byte order mark or file_encoding); null
   * before that. Earlier versions stored utf-8, utf-16le, utf-16be or latin1: aliases of the same.
   */
  encoding: z.string().refine((name) => lookupEncoding(name) !== undefined, 'not a supported encoding').nullable(),
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
