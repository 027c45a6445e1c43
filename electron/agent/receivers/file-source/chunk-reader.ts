/**
 * One byte range of a file read chunk after chunk through the parse threads (file-reader.ts reads
 * the whole file with it; file-split.ts each part of a split one). The thread commits the records
 * and the new position of each chunk; this side grows the chunk for a long line, skips a line
 * longer than MAX_LINE_BYTES, raises the markers and logs the lines it skipped.
 */
import type { Parser } from '../../../../shared/config/schema.js';
import type { ComponentContext, StreamKey } from '../../components/contract.js';
import type { Logger } from '../../logging/logger.js';
import type { ParseRequest } from '../../components/parse-protocol.js';
import type { ParseWorkers, PooledParseResponse } from '../../workers/parse-worker-pool.js';
import type { ChunkRange, RangeOutcome } from './file-split.js';
import { say, type AgentMessage } from '../../../../shared/config/message.js';

/**
 * Bytes read and committed per step (in a parse thread): bounds memory whatever the file size.
 * 512 KiB is about 8,000 rows of a typical machine file: a commit (two WAL syncs, the outbox's and
 * the KPI history's) and a message each way per 8,000 rows instead of per 2,000 cost ~10 % less
 * CPU a row end to end than 128 KiB; 1 MiB cost more again (the young generation's collections
 * grew). Only the fused path (rows straight into upload bodies) takes a whole chunk: the general
 * path reads RECORD_CHUNK_BYTES of it (docs/performance.md, "Morning").
 */
export const CHUNK_BYTES = 512 * 1024;
/**
 * Bytes of a chunk the general path (a record object a row) parses at most: ~2,000 rows, one
 * outbox batch, whose records fit the worker's young generation (WORKER_LIMITS) and die there.
 * With 256 KiB and an 8 MiB young generation they outlived it and the worker spent ~30 % more CPU,
 * mostly in garbage collection; with 512 KiB and 32 MiB it still spent ~10 % more
 * (docs/performance.md).
 */
export const RECORD_CHUNK_BYTES = 128 * 1024;
/**
 * Longest line read: a longer one is a bad line (bad_lines_action) and skipped unread, so that one
 * broken file (a missing newline, binary data) cannot exhaust the parse worker's memory.
 */
export const MAX_LINE_BYTES = 16 * 1024 * 1024;

export interface FileSnapshot {
  /** Where the worker reads the file (local path), also the identity stored in progress. */
  path: string;
  size: number;
  mtimeMs: number;
  /** The file has been unchanged long enough that a last line without newline is complete. */
  settled: boolean;
}

/** `length` bytes of a file from `offset`, local or remote. */
export type ByteReader = (offset: number, length: number) => Promise<Buffer>;

/**
 * What reading a file's ranges needs: the file, its stream and parser, the threads, its identity.
 */
export interface ChunkReaderOptions {
  receiver: string;
  stream: StreamKey;
  file: FileSnapshot;
  parser: Parser;
  context: ComponentContext;
  worker: ParseWorkers;
  /** Aborted when the receiver stops: chunks still waiting for a thread are dropped (not read). */
  signal?: AbortSignal;
  /** Remote sources hand the bytes over; local files are read by the worker itself. */
  readRange?: ByteReader;
  /** Reads bytes of the file, local or remote (the end of a long line is looked for with it). */
  bytesAt: ByteReader;
  /** The identity of the file as first read (file-reader.ts). */
  fingerprint: string;
  recordIdPrefix: string;
}

/** Where a range's read stands between two chunks. */
interface Cursor {
  offset: number;
  state: unknown;
  records: number;
  chunkBytes: number;
}

function outcome(at: Cursor, stop: RangeOutcome['stop']): RangeOutcome {
  return { offset: at.offset, state: at.state, records: at.records, stop };
}

export class ChunkReader {
  /** The thread that parsed last: lines about reading and parsing carry its name. */
  thread: string;

  constructor(private readonly options: ChunkReaderOptions) {
    this.thread = options.context.logger.thread;
  }

  logger(): Logger {
    const { logger } = this.options.context;
    return logger.child(logger.component, this.thread);
  }

  /**
   * Reads a range chunk after chunk; `advanced` is told the bytes read of the range after each
   * chunk.
   */
  async readChunks(range: ChunkRange, advanced: (bytes: number) => void): Promise<RangeOutcome> {
    const at: Cursor = {
      offset: range.offset,
      state: range.state,
      records: 0,
      chunkBytes: CHUNK_BYTES,
    };
    // A remote file's bytes from `offset` on that the last request was given but did not consume
    // (the general path parses part of a chunk, a line runs past it): not fetched again.
    let carry: Buffer | undefined;
    while (at.offset < range.end) {
      const bytes = await this.remoteChunk(range, at, carry);
      carry = undefined;
      const response = await this.parse({ ...this.request(range, at, at.chunkBytes), bytes });
      at.records += response.rows;
      if (response.fatal) {
        const { line, message, said } = response.fatal;
        return this.stopAtBadLine(
          at,
          say('file.bad_line_stops', '{file} line {line}: {problem}. bad_lines_action is "error": reading of this file stops here until the line is fixed.', { file: this.options.file.path, line, problem: said ?? message }),
        );
      }
      if (bytes && response.consumedBytes < bytes.length)
        carry = bytes.subarray(response.consumedBytes);
      if (response.consumedBytes === 0) {
        // A line longer than the chunk: read a bigger chunk, up to the rest of the range.
        if (response.chunkBytes >= range.end - at.offset) return outcome(at, 'waiting');
        if (at.chunkBytes < MAX_LINE_BYTES) {
          at.chunkBytes *= 2;
          continue;
        }
        const stopped = await this.skipLongLine(range, at);
        if (stopped) return stopped;
        carry = undefined;
        advanced(at.offset - range.offset);
        continue;
      }
      at.chunkBytes = CHUNK_BYTES;
      at.offset += response.consumedBytes;
      at.state = response.state;
      advanced(at.offset - range.offset);
      if (range.oneChunk) return outcome(at, 'paused');
    }
    return outcome(at, 'end');
  }

  /** A remote file's next chunk (undefined: a local file, the thread reads it). */
  private async remoteChunk(range: ChunkRange, at: Cursor, carry: Buffer | undefined) {
    const { readRange } = this.options;
    if (!readRange) return undefined;
    return remoteBytes(readRange, {
      offset: at.offset,
      length: Math.min(at.chunkBytes, range.end - at.offset),
      carry,
    });
  }

  /** The request for `length` bytes at the cursor. */
  private request(range: ChunkRange, at: Cursor, length: number): Omit<ParseRequest, 'id'> {
    const { receiver, stream, file, parser, context, fingerprint, recordIdPrefix } = this.options;
    return {
      path: file.path,
      fileSize: file.size,
      offset: at.offset,
      chunkBytes: length,
      parser,
      state: at.state,
      final: range.final,
      file: { size: file.size, mtimeMs: file.mtimeMs, fingerprint },
      recordIdPrefix,
      // Built once per configuration: a save that changes transforms or transmits applies from the
      // next chunk.
      plan: context.pipeline.plan(receiver, stream),
      nowMicros: String(context.clock.nowMicros()),
      ...(range.part === undefined ? {} : { end: range.end, part: range.part }),
    };
  }

  /**
   * A request through a parse thread: its commit announced, its bad lines reported; a failure
   * thrown.
   */
  private async parse(request: Omit<ParseRequest, 'id'>): Promise<PooledParseResponse & { ok: true }> {
    const { receiver, stream, file, context } = this.options;
    const response = await this.options.worker.parse(request, this.options.signal);
    this.thread = response.threadName;
    if (!response.ok) throw Object.assign(new Error(response.error), { code: response.code });
    if (response.commit) context.pipeline.afterCommit(receiver, stream, response.commit);
    reportLines({
      context,
      logger: this.logger(),
      stream,
      filePath: file.path,
      bad: response.badLines,
      skipped: response.skippedLines,
    });
    return response;
  }

  /**
   * A line longer than MAX_LINE_BYTES: skipped unread to its end (a bad line under
   * bad_lines_action). Returns how the range stops, or undefined when it reads on after the line.
   */
  private async skipLongLine(range: ChunkRange, at: Cursor): Promise<RangeOutcome | undefined> {
    const { file } = this.options;
    const rest = { ...file, size: range.end, settled: range.final };
    const lineEnd = await findLineEnd(this.options.bytesAt, at.offset + at.chunkBytes, rest);
    if (lineEnd === undefined) return outcome(at, 'waiting'); // may still be written
    const skipped = await this.parse({ ...this.request(range, at, 0), skipTo: lineEnd });
    if (skipped.fatal) return this.stopAtBadLine(at, say('file.bad_line', '{file} line {line}: {problem}', { file: file.path, line: skipped.fatal.line, problem: skipped.fatal.said ?? skipped.fatal.message }));
    at.chunkBytes = CHUNK_BYTES;
    at.offset = lineEnd;
    at.state = skipped.state;
    return undefined;
  }

  /** A bad line under bad_lines_action "error": marked and logged; the range stops before it. */
  private stopAtBadLine(at: Cursor, said: AgentMessage): RangeOutcome {
    this.options.context.markers.raise([this.options.stream], 'error', 'parse_error', said);
    this.logger().error(said.text);
    return outcome(at, 'fatal');
  }
}

/**
 * `length` bytes of a remote file from `offset`: what `carry` (bytes from `offset` on) holds is not
 * fetched again.
 */
async function remoteBytes(
  read: ByteReader,
  { offset, length, carry }: { offset: number; length: number; carry: Buffer | undefined },
): Promise<Buffer> {
  if (!carry) return read(offset, length);
  if (carry.length >= length) return carry.subarray(0, length);
  const rest = await read(offset + carry.length, length - carry.length);
  return Buffer.concat([carry, rest]);
}

/**
 * The offset after the first newline at or after `from`; at the end of a settled file, the file's
 * end (its last line has no newline); undefined while the line may still be written.
 */
async function findLineEnd(
  read: ByteReader,
  from: number,
  file: FileSnapshot,
): Promise<number | undefined> {
  const STEP = 1024 * 1024;
  for (let at = from; at < file.size; at += STEP) {
    const piece = await read(at, Math.min(STEP, file.size - at));
    const newline = piece.indexOf(10);
    if (newline >= 0) return at + newline + 1;
  }
  return file.settled ? file.size : undefined;
}

interface LinesReport {
  context: ComponentContext;
  logger: Logger;
  stream: StreamKey;
  filePath: string;
  bad: { line: number; message: string; said?: AgentMessage }[];
  skipped: number;
}

/** Bad lines of a chunk: a marker and a warning ("warn"), a line in the log ("skip"). */
function reportLines({ context, logger, stream, filePath, bad, skipped }: LinesReport): void {
  if (bad.length > 0) {
    // Each line's problem is the parser's own text; "line N" is said by code.
    const [first, second, third] = bad.slice(0, 3).map((b) => say('file.line_problem', 'line {line}: {problem}', { line: b.line, problem: b.said ?? b.message }));
    const [count, file] = [bad.length, filePath];
    const said =
      bad.length > 3
        ? say('file.lines_skipped_more', '{count} line(s) of {file} skipped (bad_lines_action "warn"): {first}; {second}; {third}; …', { count, file, first: first!, second: second!, third: third! })
        : third
          ? say('file.lines_skipped_3', '{count} line(s) of {file} skipped (bad_lines_action "warn"): {first}; {second}; {third}', { count, file, first: first!, second: second!, third })
          : second
            ? say('file.lines_skipped_2', '{count} line(s) of {file} skipped (bad_lines_action "warn"): {first}; {second}', { count, file, first: first!, second })
            : say('file.lines_skipped', '{count} line(s) of {file} skipped (bad_lines_action "warn"): {first}', { count, file, first: first! });
    context.markers.raise([stream], 'warning', 'bad_lines', said);
    logger.warn(said.text);
  }
  if (skipped > 0) logger.info(`${skipped} bad line(s) of ${filePath} skipped silently (bad_lines_action "skip")`);
}
