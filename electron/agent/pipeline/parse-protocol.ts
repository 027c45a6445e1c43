import type { CommitPlan, CommitResult } from './batch-committer.js';

/**
 * A chunk to read, parse and commit: read from `path` at `offset`, or given as `bytes` (remote
 * files); the worker turns its rows into records and commits them with the file's new position
 * following `plan` (the pipeline's plan for the stream, built once per configuration).
 */
export interface ParseRequest {
  id: number;
  path: string;
  bytes?: Uint8Array;
  fileSize?: number;
  offset: number;
  chunkBytes: number;
  parser: unknown;
  state: unknown;
  /** The file is complete: a last line without a newline may be read. */
  final: boolean;
  /** The file's identity in its stored progress. */
  file: { size: number; mtimeMs: number; fingerprint: string };
  /** Prefix of the record ids of this file (record-ids.ts). */
  recordIdPrefix: string;
  plan: CommitPlan;
  /** The main thread's clock (epoch microseconds, as text): capture time and history time. */
  nowMicros: string;
  /**
   * The line at `offset` is longer than MAX_LINE_BYTES and ends right before this offset: handle it
   * as a bad line (bad_lines_action) instead of reading it.
   */
  skipTo?: number;
  /** Read no further than this offset (the end of a part of a split file). */
  end?: number;
  /** The chunk belongs to the part of the file starting here: its progress is the part's, not the file's. */
  part?: number;
  /** A local copy of a remote file read as a whole document (document-file.ts); `path` names it. */
  localPath?: string;
}

export type ParseResponse =
  | {
      id: number;
      ok: true;
      /** Rows read from the chunk (before transforms). */
      rows: number;
      badLines: { line: number; message: string }[];
      skippedLines: number;
      consumedBytes: number;
      chunkBytes: number;
      fileSize: number;
      state: unknown;
      fatal?: { line: number; message: string };
      /** The rows and the new position are committed, or a transmit's outbox had no room (nothing was). */
      commit?: CommitResult;
    }
  | { id: number; ok: false; error: string; code?: string; thread: number };
