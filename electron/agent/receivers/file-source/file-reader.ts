import crypto from 'node:crypto';
import type { Parser } from '../../../../shared/config/schema.js';
import type { ComponentContext, FileProgress, StreamKey } from '../../components/contract.js';
import type { Logger } from '../../logging/logger.js';
import type { ParseWorkers } from '../../pipeline/parse-worker-pool.js';
import { readRange } from './read-range.js';
import { recordIdPrefix } from './record-ids.js';
import { type ChunkRange, type RangeOutcome, type SplitOptions, readParts, splitFile } from './file-split.js';

/**
 * Bytes read and committed per step (in a parse thread): bounds memory whatever the file size.
 * 512 KiB is about 8,000 rows of a typical machine file: a commit (two WAL syncs, the outbox's and
 * the KPI history's) and a message each way per 8,000 rows instead of per 2,000 cost ~10 % less CPU
 * a row end to end than 128 KiB; 1 MiB cost more again (the young generation's collections grew).
 * Only the fused path (rows straight into upload bodies) takes a whole chunk: the general path reads
 * RECORD_CHUNK_BYTES of it (docs/performance.md, "Morning").
 */
export const CHUNK_BYTES = 512 * 1024;
/**
 * Bytes of a chunk the general path (a record object a row) parses at most: ~2,000 rows, one outbox
 * batch, whose records fit the worker's young generation (WORKER_LIMITS) and die there. With 256 KiB
 * and an 8 MiB young generation they outlived it and the worker spent ~30 % more CPU, mostly in
 * garbage collection; with 512 KiB and 32 MiB it still spent ~10 % more (docs/performance.md).
 */
export const RECORD_CHUNK_BYTES = 128 * 1024;
/**
 * Longest line read: a longer one is a bad line (bad_lines_action) and skipped unread, so that one
 * broken file (a missing newline, binary data) cannot exhaust the parse worker's memory.
 */
export const MAX_LINE_BYTES = 16 * 1024 * 1024;
/** Bytes at the start of a file whose hash tells a rewritten file from an appended one. */
export const FINGERPRINT_BYTES = 4096;
/** A renamed file is recognised only by a prefix this long: short prefixes (a bare header) are not unique. */
const MIN_ADOPT_BYTES = 256;

export interface FileSnapshot {
  /** Where the worker reads the file (local path), also the identity stored in progress. */
  path: string;
  size: number;
  mtimeMs: number;
  /** The file has been unchanged long enough that a last line without newline is complete. */
  settled: boolean;
}

/** `length` bytes of a remote file from `offset`: what `carry` (bytes from `offset` on) holds is not fetched again. */
async function remoteBytes(read: (offset: number, length: number) => Promise<Buffer>, offset: number, length: number, carry: Buffer | undefined): Promise<Buffer> {
  if (!carry) return read(offset, length);
  if (carry.length >= length) return carry.subarray(0, length);
  const rest = await read(offset + carry.length, length - carry.length);
  return Buffer.concat([carry, rest]);
}

/** `length:sha256` of the first bytes; the length lets a grown file be compared on the same prefix. */
export function fingerprintOf(prefix: Buffer): string {
  return `${prefix.length}:${crypto.createHash('sha256').update(prefix).digest('hex').slice(0, 32)}`;
}

export function fingerprintLength(fingerprint: string): number {
  return Number(fingerprint.slice(0, fingerprint.indexOf(':')));
}

/**
 * The head part of a file's identity: `length:hash` of its first bytes. A file rewritten with the
 * same first bytes gets `~<mtime>` after it (new record ids: a changed row must not carry the id of
 * the row it replaced).
 */
export function headOf(fingerprint: string): string {
  const version = fingerprint.indexOf('~');
  return version < 0 ? fingerprint : fingerprint.slice(0, version);
}

/** Bytes at the end of what was read that tell a same-size replacement from the file read. */
export const TAIL_BYTES = 4096;

/**
 * `start:length:hash` of the last bytes of `chunk` before `consumed` (chunk read from `offset`),
 * stored with the progress; empty when nothing was consumed (the stored one stays).
 */
export function tailOf(chunk: Uint8Array, offset: number, consumed: number): string {
  const from = Math.max(0, consumed - TAIL_BYTES);
  if (consumed <= 0) return '';
  const hash = crypto.createHash('sha256').update(chunk.subarray(from, consumed)).digest('hex').slice(0, 32);
  return `${offset + from}:${consumed - from}:${hash}`;
}

/** Whether the bytes a stored tail names are still those bytes (undefined tail or out of range: unknown, true). */
async function tailHolds(tail: string | undefined, size: number, read: (offset: number, length: number) => Promise<Buffer>): Promise<boolean> {
  const fields = (tail ?? '').split(':');
  if (fields.length !== 3) return true;
  const [from, bytes, hash] = [Number(fields[0]), Number(fields[1]), fields[2]];
  if (from + bytes > size) return false;
  const now = await read(from, bytes);
  return crypto.createHash('sha256').update(now).digest('hex').slice(0, 32) === hash;
}

/** What readFile needs: the file, its stream and parser, and where to read and commit it. */
export interface ReadFileOptions {
  receiver: string;
  stream: StreamKey;
  file: FileSnapshot;
  parser: Parser;
  context: ComponentContext;
  worker: ParseWorkers;
  /** Aborted when the receiver stops: chunks still waiting for a thread are dropped (not read). */
  signal?: AbortSignal;
  /** Reads the first `length` bytes (fingerprint), local or remote. */
  readPrefix: (length: number) => Promise<Buffer>;
  /** Remote sources hand the bytes over; local files are read by the worker itself. */
  readRange?: (offset: number, length: number) => Promise<Buffer>;
  /** Whether a path still exists: lets a renamed (rotated) file keep its progress. */
  exists?: (path: string) => Promise<boolean>;
  /** Big local files are cut in two and read by two parse threads at once (file-split.ts); absent: never. */
  split?: SplitOptions;
}

/**
 * Reads one file of one stream from where its progress stopped, chunk by chunk through the parse
 * worker, which commits the records and the new position in one transaction per chunk (following
 * the pipeline's plan); this thread only handles markers, logs and the transmits' wake-up.
 * Returns whether the whole file is consumed.
 */
export async function readFile(options: ReadFileOptions): Promise<{ complete: boolean; records: number; thread: string }> {
  const { receiver, stream, file } = options;
  // Lines about reading and parsing carry the name of the thread that parsed in their thread field.
  let thread = options.context.logger.thread;
  const logger = () => options.context.logger.child(options.context.logger.component, thread);
  const context = options.context;
  let progress = context.store.fileProgress(receiver, stream, file.path);
  const prefix = await options.readPrefix(Math.min(file.size, FINGERPRINT_BYTES));
  if (!progress && options.exists) progress = await adoptMovedFile(options.exists, receiver, stream, file, prefix, context);
  let parts = progress ? context.store.partsOf(receiver, stream, file.path) : [];
  const bytesAt = options.readRange ?? ((at: number, length: number) => readRange(file.path, at, length));
  let version = '';
  if (progress) {
    const comparable = prefix.subarray(0, Math.min(prefix.length, fingerprintLength(progress.fingerprint)));
    // A split file was at least as long as its last part's end.
    const readTo = Math.max(progress.offset, ...parts.map((part) => part.end));
    const sameHead = file.size >= readTo && fingerprintOf(comparable) === headOf(progress.fingerprint);
    // Same first bytes but modified since: the last bytes read must still be there, else it is a
    // replacement (a same-size copy over it would otherwise never be read again).
    const replaced = sameHead && file.mtimeMs !== progress.mtimeMs && !(await tailHolds(progress.tail, file.size, bytesAt));
    if (!sameHead || replaced) {
      if (replaced) {
        logger().warn(`${file.path} was replaced by a file with the same first ${Math.min(prefix.length, FINGERPRINT_BYTES)} bytes (its bytes before byte ${readTo} changed): reading it again from the start`);
        version = `~${Math.round(file.mtimeMs)}`;
      } else logger().info(`${file.path} was rewritten: reading it again from the start`);
      if (parts.length > 0) context.store.forgetFile(receiver, stream, file.path);
      progress = undefined;
      parts = [];
    }
  }
  let offset = progress?.offset ?? 0;
  let state: unknown = progress ? JSON.parse(progress.parserState) : null;
  // The identity of the file as first read: record ids derive from it, so a replay after a crash
  // produces the same ids even if the file has grown since.
  const fingerprint = progress?.fingerprint ?? fingerprintOf(prefix) + version;
  const idPrefix = recordIdPrefix(stream, file.path, fingerprint);
  let records = 0;
  // Shown in GET /v1/streams (stats.reading) while this file is read: updated once per chunk.
  const shown = offset < file.size;
  const show = (bytesRead: number) => {
    if (shown) context.pipeline.reading(receiver, stream, file.path, { bytesRead, size: file.size });
  };
  show(offset);

  /** Reads a range chunk after chunk; `advanced` is told the bytes read of the range after each chunk. */
  const readChunks = async (range: ChunkRange, advanced: (bytes: number) => void): Promise<RangeOutcome> => {
    let { offset, state } = range;
    let chunkBytes = CHUNK_BYTES;
    let records = 0;
    // A remote file's bytes from `offset` on that the last request was given but did not consume
    // (the general path parses part of a chunk, a line runs past it): not fetched again.
    let carry: Buffer | undefined;
    while (offset < range.end) {
      const request = (length: number) => ({
        path: file.path,
        fileSize: file.size,
        offset,
        chunkBytes: length,
        parser: options.parser,
        state,
        final: range.final,
        file: { size: file.size, mtimeMs: file.mtimeMs, fingerprint },
        recordIdPrefix: idPrefix,
        // Built once per configuration: a save that changes transforms or transmits applies from the next chunk.
        plan: context.pipeline.plan(receiver, stream),
        nowMicros: String(context.clock.nowMicros()),
        ...(range.part === undefined ? {} : { end: range.end, part: range.part }),
      });
      const bytes = options.readRange ? await remoteBytes(options.readRange, offset, Math.min(chunkBytes, range.end - offset), carry) : undefined;
      carry = undefined;
      const response = await options.worker.parse({ ...request(chunkBytes), bytes }, options.signal);
      thread = response.threadName;
      if (!response.ok) throw Object.assign(new Error(response.error), { code: response.code });
      if (response.commit) context.pipeline.afterCommit(receiver, stream, response.commit);
      records += response.rows;
      reportLines(context, logger(), stream, file.path, response.badLines, response.skippedLines);
      if (response.fatal) {
        const message = `${file.path} line ${response.fatal.line}: ${response.fatal.message}. bad_lines_action is "error": reading of this file stops here until the line is fixed.`;
        context.markers.raise([stream], 'error', 'parse_error', message);
        logger().error(message);
        return { offset, state, records, stop: 'fatal' };
      }
      if (bytes && response.consumedBytes < bytes.length) carry = bytes.subarray(response.consumedBytes);
      if (response.consumedBytes === 0) {
        // A line longer than the chunk: read a bigger chunk, up to the rest of the range.
        if (response.chunkBytes >= range.end - offset) return { offset, state, records, stop: 'waiting' };
        if (chunkBytes < MAX_LINE_BYTES) {
          chunkBytes *= 2;
          continue;
        }
        const lineEnd = await findLineEnd(bytesAt, offset + chunkBytes, { ...file, size: range.end, settled: range.final });
        if (lineEnd === undefined) return { offset, state, records, stop: 'waiting' }; // may still be written
        const skipped = await options.worker.parse({ ...request(0), skipTo: lineEnd }, options.signal);
        thread = skipped.threadName;
        if (!skipped.ok) throw Object.assign(new Error(skipped.error), { code: skipped.code });
        if (skipped.commit) context.pipeline.afterCommit(receiver, stream, skipped.commit);
        reportLines(context, logger(), stream, file.path, skipped.badLines, skipped.skippedLines);
        if (skipped.fatal) {
          const message = `${file.path} line ${skipped.fatal.line}: ${skipped.fatal.message}`;
          context.markers.raise([stream], 'error', 'parse_error', message);
          logger().error(message);
          return { offset, state, records, stop: 'fatal' };
        }
        chunkBytes = CHUNK_BYTES;
        carry = undefined;
        offset = lineEnd;
        state = skipped.state;
        advanced(offset - range.offset);
        continue;
      }
      chunkBytes = CHUNK_BYTES;
      offset += response.consumedBytes;
      state = response.state;
      advanced(offset - range.offset);
      if (range.oneChunk) return { offset, state, records, stop: 'paused' };
    }
    return { offset, state, records, stop: 'end' };
  };

  const splitContext = { receiver, stream, file, fingerprint, parser: options.parser, context, logger, readChunks };
  try {
    let splitTried = false;
    // A big local file not yet split: cut in two once its header is read (file-split.ts).
    const bigEnough = () => parts.length === 0 && options.split !== undefined && !options.readRange && file.size - offset >= options.split.minBytes;
    if (bigEnough()) options.worker.warm?.(2);
    while (offset < file.size) {
      const maySplit = !splitTried && bigEnough();
      if (maySplit && hasHeader(state)) {
        // Once per read: a file that cannot be split is read on by this thread.
        splitTried = true;
        parts = await splitFile(splitContext, options.split!, offset, state);
      }
      if (parts.length > 0) {
        const read = await readParts(splitContext, parts, (bytesRead) => show(bytesRead));
        records += read.records;
        if (!read.merged) return { complete: false, records, thread };
        parts = [];
        offset = read.merged.offset;
        state = JSON.parse(read.merged.parserState);
        show(offset);
        continue;
      }
      // Until the header is read, a file that may be split is read one chunk at a time.
      const read = await readChunks({ offset, end: file.size, state, final: file.settled, oneChunk: maySplit }, (bytes) => show(offset + bytes));
      records += read.records;
      offset = read.offset;
      state = read.state;
      if (read.stop === 'waiting' || read.stop === 'fatal') return { complete: false, records, thread };
    }
    context.markers.clear('parse_error', [stream]);
    return { complete: offset >= file.size, records, thread };
  } finally {
    if (shown) context.pipeline.reading(receiver, stream, file.path, null);
  }
}

/** Whether a parser state (JSON, from the worker) has its header: a file is split only after it. */
function hasHeader(state: unknown): boolean {
  return typeof state === 'object' && state !== null && Array.isArray((state as { header?: unknown }).header);
}

/**
 * The offset after the first newline at or after `from`; at the end of a settled file, the file's
 * end (its last line has no newline); undefined while the line may still be written.
 */
async function findLineEnd(read: (offset: number, length: number) => Promise<Buffer>, from: number, file: FileSnapshot): Promise<number | undefined> {
  const STEP = 1024 * 1024;
  for (let at = from; at < file.size; at += STEP) {
    const piece = await read(at, Math.min(STEP, file.size - at));
    const newline = piece.indexOf(10);
    if (newline >= 0) return at + newline + 1;
  }
  return file.settled ? file.size : undefined;
}

/**
 * A file that appears under a new name with the same first bytes as a file that is gone (log-style
 * rotation, a rename) continues from the old file's progress instead of being read twice. Found by
 * index: for each fingerprint length the stream's files were first read at (up to this file's
 * prefix), one seek and one hash, never a look at every file read so far.
 */
async function adoptMovedFile(exists: (path: string) => Promise<boolean>, receiver: string, stream: StreamKey, file: FileSnapshot, prefix: Buffer, context: ComponentContext): Promise<FileProgress | undefined> {
  if (prefix.length < MIN_ADOPT_BYTES) return undefined;
  for (const length of context.store.fingerprintLengths(receiver, stream, MIN_ADOPT_BYTES - 1, prefix.length)) {
    for (const candidate of context.store.filesByHead(receiver, stream, fingerprintOf(prefix.subarray(0, length)))) {
      if (candidate.path === file.path) continue;
      const parts = context.store.partsOf(receiver, stream, candidate.path);
      if (Math.max(candidate.offset, ...parts.map((part) => part.end)) > file.size) continue;
      if (await exists(candidate.path)) continue;
      // Its parts (a file read by two threads) move with it, in one transaction.
      context.store.moveFile(receiver, stream, candidate.path, file.path);
      context.logger.info(`${file.path} is ${candidate.path} renamed: continuing at byte ${candidate.offset}`);
      return { ...candidate, path: file.path };
    }
  }
  return undefined;
}

function reportLines(context: ComponentContext, logger: Logger, stream: StreamKey, filePath: string, bad: { line: number; message: string }[], skipped: number): void {
  if (bad.length > 0) {
    const first = bad.slice(0, 3).map((b) => `line ${b.line}: ${b.message}`).join('; ');
    const message = `${bad.length} line(s) of ${filePath} skipped (bad_lines_action "warn"): ${first}${bad.length > 3 ? '; …' : ''}`;
    context.markers.raise([stream], 'warning', 'bad_lines', message);
    logger.warn(message);
  }
  if (skipped > 0) logger.info(`${skipped} bad line(s) of ${filePath} skipped silently (bad_lines_action "skip")`);
}
