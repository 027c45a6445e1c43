import type { CommitPlan, CommitResult } from './commit-plan.js';
import type { AgentMessage } from '../../../shared/config/message.js';

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
  /**
   * The chunk belongs to the part of the file starting here: its progress is the part's, not the
   * file's.
   */
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
      /** `said`: the problem with its code, where the parser says it by code. */
      badLines: { line: number; message: string; said?: AgentMessage }[];
      skippedLines: number;
      consumedBytes: number;
      chunkBytes: number;
      fileSize: number;
      state: unknown;
      fatal?: { line: number; message: string; said?: AgentMessage };
      /**
       * The rows and the new position are committed, or a transmit's outbox had no room (nothing
       * was).
       */
      commit?: CommitResult;
    }
  | { id: number; ok: false; error: string; code?: string; thread: number };

/**
 * A chunk's answer, with the thread that handled it (the thread field of the log lines about it).
 */
export type PooledParseResponse = ParseResponse & { threadName: string };

/** What file receivers need of the parse threads: a chunk in, its answer out. */
export interface ParseWorkers {
  /** How many chunks can be handled at the same time (lanes worth running per receiver). */
  readonly size: number;
  /** Parses and commits one chunk; rejects at once when `signal` aborts before a thread took it. */
  parse(request: Omit<ParseRequest, 'id'>, signal?: AbortSignal): Promise<PooledParseResponse>;
  /**
   * Work for `threads` threads is coming (a big file about to be split): start them now, so that a
   * spare's start-up overlaps the work before it instead of following it.
   */
  warm?(threads: number): void;
}

/** The agent's shared parse threads as a file receiver gets them (ParseWorkerPool satisfies it). */
export interface ParseThreads extends ParseWorkers {
  /** A file receiver is starting: the first thread may start now. */
  start(): void;
}

/**
 * Reads, parses and commits chunk requests: what a parse thread runs
 * (threads/parse-thread-root.ts), and the pool on its own thread for chunks of a few rows.
 */
export interface ChunkRunner {
  /** The answer; a promise while what the request needs is loaded (a thread's first document). */
  handle(request: ParseRequest): ParseResponse | Promise<ParseResponse>;
  /** Closes its database connections. */
  close(): void;
}
