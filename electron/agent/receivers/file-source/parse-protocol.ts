import type { WorkerCommit, WorkerPlan } from '../../pipeline/pipeline.js';

/**
 * A chunk to read, parse and commit: read from `path` at `offset`, or given as `bytes` (remote
 * files); the worker turns its rows into records and commits them with the file's new position
 * following `plan`.
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
  plan: WorkerPlan;
  /**
   * The line at `offset` is longer than MAX_LINE_BYTES and ends right before this offset: handle it
   * as a bad line (bad_lines_action) instead of reading it.
   */
  skipTo?: number;
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
      /** The rows and the new position are committed. */
      committed?: WorkerCommit;
      /** A transmit's outbox has no room: nothing was committed. */
      full?: { transmit: string; bytes: number };
    }
  | { id: number; ok: false; error: string; code?: string; thread: number };
