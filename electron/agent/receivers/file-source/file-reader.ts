import crypto from 'node:crypto';
import type { ComponentContext, FilePart, FileProgress, StreamKey } from '../../components/contract.js';
import { readRange } from './read-range.js';
import { recordIdPrefix } from './record-ids.js';
import { type ByteReader, ChunkReader, type ChunkReaderOptions, type FileSnapshot } from './chunk-reader.js';
import { type SplitContext, type SplitOptions, readParts, splitFile } from './file-split.js';

export { CHUNK_BYTES, MAX_LINE_BYTES, RECORD_CHUNK_BYTES, type FileSnapshot } from './chunk-reader.js';

/** Bytes at the start of a file whose hash tells a rewritten file from an appended one. */
export const FINGERPRINT_BYTES = 4096;
/**
 * A renamed file is recognised only by a prefix this long: short prefixes (a bare header) are not
 * unique.
 */
const MIN_ADOPT_BYTES = 256;

/**
 * `length:sha256` of the first bytes; the length lets a grown file be compared on the same prefix.
 */
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

/**
 * Whether the bytes a stored tail names are still those bytes (undefined tail or out of range:
 * unknown, true).
 */
async function tailHolds(
  tail: string | undefined,
  size: number,
  read: ByteReader,
): Promise<boolean> {
  const fields = (tail ?? '').split(':');
  if (fields.length !== 3) return true;
  const [from, bytes, hash] = [Number(fields[0]), Number(fields[1]), fields[2]];
  if (from + bytes > size) return false;
  const now = await read(from, bytes);
  return crypto.createHash('sha256').update(now).digest('hex').slice(0, 32) === hash;
}

/** What readFile needs: the file, its stream and parser, and where to read and commit it. */
export interface ReadFileOptions extends Omit<ChunkReaderOptions, 'bytesAt' | 'fingerprint' | 'recordIdPrefix'> {
  /** Reads the first `length` bytes (fingerprint), local or remote. */
  readPrefix: (length: number) => Promise<Buffer>;
  /** Whether a path still exists: lets a renamed (rotated) file keep its progress. */
  exists?: (path: string) => Promise<boolean>;
  /**
   * Big local files are cut in two and read by two parse threads at once (file-split.ts); absent:
   * never.
   */
  split?: SplitOptions;
}

/** Where a file's read starts: its committed position, its parts when split, its identity. */
interface StartingPoint {
  offset: number;
  state: unknown;
  parts: FilePart[];
  fingerprint: string;
}

/**
 * Reads one file of one stream from where its progress stopped, chunk by chunk through the parse
 * worker, which commits the records and the new position in one transaction per chunk (following
 * the pipeline's plan); this thread only handles markers, logs and the transmits' wake-up.
 * Returns whether the whole file is consumed.
 */
export async function readFile(
  options: ReadFileOptions,
): Promise<{ complete: boolean; records: number; thread: string }> {
  const { receiver, stream, file, context } = options;
  const bytesAt =
    options.readRange ?? ((at: number, length: number) => readRange(file.path, at, length));
  const start = await startingPoint(options, bytesAt);
  const idPrefix = recordIdPrefix(stream, file.path, start.fingerprint);
  const reader = new ChunkReader({
    ...options,
    bytesAt,
    fingerprint: start.fingerprint,
    recordIdPrefix: idPrefix,
  });
  // Shown in GET /v1/streams (stats.reading) while this file is read: updated once per chunk.
  const shown = start.offset < file.size;
  const show = (bytesRead: number) => {
    if (shown)
      context.pipeline.reading(receiver, stream, file.path, { bytesRead, size: file.size });
  };
  show(start.offset);
  try {
    const read = await readToEnd(options, reader, start, show);
    return { ...read, thread: reader.thread };
  } finally {
    if (shown) context.pipeline.reading(receiver, stream, file.path, null);
  }
}

/**
 * The stored progress of the file (or of the file it was before a rename), unless the file was
 * rewritten or replaced since: then it is read again from the start.
 */
async function startingPoint(
  options: ReadFileOptions,
  bytesAt: ByteReader,
): Promise<StartingPoint> {
  const { receiver, stream, file, context } = options;
  let progress = context.store.fileProgress(receiver, stream, file.path);
  const prefix = await options.readPrefix(Math.min(file.size, FINGERPRINT_BYTES));
  if (!progress && options.exists) {
    progress = await adoptMovedFile({
      exists: options.exists,
      receiver,
      stream,
      file,
      prefix,
      context,
    });
  }
  const parts = progress ? context.store.partsOf(receiver, stream, file.path) : [];
  const version = progress
    ? await changeSinceRead({ options, progress, parts, prefix, bytesAt })
    : '';
  if (progress && version !== undefined) {
    if (parts.length > 0) context.store.forgetFile(receiver, stream, file.path);
    return { offset: 0, state: null, parts: [], fingerprint: fingerprintOf(prefix) + version };
  }
  return {
    offset: progress?.offset ?? 0,
    state: progress ? JSON.parse(progress.parserState) : null,
    parts,
    // The identity of the file as first read: record ids derive from it, so a replay after a crash
    // produces the same ids even if the file has grown since.
    fingerprint: progress?.fingerprint ?? fingerprintOf(prefix) + version,
  };
}

interface ReadSoFar {
  options: ReadFileOptions;
  progress: FileProgress;
  parts: FilePart[];
  prefix: Buffer;
  bytesAt: ByteReader;
}

/**
 * Whether the file read so far is still there: undefined when it is (read on), else the version
 * its new identity gets ('' for a rewritten file, `~<mtime>` for a replacement with the same first
 * bytes), logged.
 */
async function changeSinceRead({
  options,
  progress,
  parts,
  prefix,
  bytesAt,
}: ReadSoFar): Promise<string | undefined> {
  const { file, context } = options;
  const logger = context.logger.child(context.logger.component, context.logger.thread);
  const comparable = prefix.subarray(
    0,
    Math.min(prefix.length, fingerprintLength(progress.fingerprint)),
  );
  // A split file was at least as long as its last part's end.
  const readTo = Math.max(progress.offset, ...parts.map((part) => part.end));
  const sameHead =
    file.size >= readTo && fingerprintOf(comparable) === headOf(progress.fingerprint);
  // Same first bytes but modified since: the last bytes read must still be there, else it is a
  // replacement (a same-size copy over it would otherwise never be read again).
  const replaced =
    sameHead &&
    file.mtimeMs !== progress.mtimeMs &&
    !(await tailHolds(progress.tail, file.size, bytesAt));
  if (sameHead && !replaced) return undefined;
  if (!replaced) {
    logger.info(`${file.path} was rewritten: reading it again from the start`);
    return '';
  }
  const head = Math.min(prefix.length, FINGERPRINT_BYTES);
  logger.warn(
    `${file.path} was replaced by a file with the same first ${head} bytes (its bytes before byte ${readTo} changed): ` +
      'reading it again from the start',
  );
  return `~${Math.round(file.mtimeMs)}`;
}

/**
 * Reads the file from its starting point to its end: a big local file cut in two parts read at
 * once (file-split.ts), any other range chunk after chunk. Stops early at an incomplete last line
 * or a bad line that stops the file.
 */
async function readToEnd(
  options: ReadFileOptions,
  reader: ChunkReader,
  start: StartingPoint,
  show: (bytesRead: number) => void,
): Promise<{ complete: boolean; records: number }> {
  const { stream, file, context, split } = options;
  let { offset, state, parts } = start;
  let records = 0;
  const splitContext = splitContextOf(options, reader, start.fingerprint);
  let splitTried = false;
  // A big local file not yet split: cut in two once its header is read (file-split.ts).
  const bigEnough = () =>
    parts.length === 0 &&
    split !== undefined &&
    !options.readRange &&
    file.size - offset >= split.minBytes;
  if (bigEnough()) options.worker.warm?.(2);
  while (offset < file.size) {
    const maySplit = !splitTried && bigEnough();
    if (maySplit && hasHeader(state)) {
      // Once per read: a file that cannot be split is read on by this thread.
      splitTried = true;
      parts = await splitFile(splitContext, split!, offset, state);
    }
    if (parts.length > 0) {
      const read = await readParts(splitContext, parts, (bytesRead) => show(bytesRead));
      records += read.records;
      if (!read.merged) return { complete: false, records };
      parts = [];
      offset = read.merged.offset;
      state = JSON.parse(read.merged.parserState);
      show(offset);
      continue;
    }
    // Until the header is read, a file that may be split is read one chunk at a time.
    const range = { offset, end: file.size, state, final: file.settled, oneChunk: maySplit };
    const from = offset;
    const read = await reader.readChunks(range, (bytes) => show(from + bytes));
    records += read.records;
    offset = read.offset;
    state = read.state;
    if (read.stop === 'waiting' || read.stop === 'fatal') return { complete: false, records };
  }
  context.markers.clear('parse_error', [stream]);
  return { complete: offset >= file.size, records };
}

/** What file-split.ts needs of this read: the file, its identity, and the reader of its ranges. */
function splitContextOf(
  options: ReadFileOptions,
  reader: ChunkReader,
  fingerprint: string,
): SplitContext {
  const { receiver, stream, file, parser, context } = options;
  return {
    receiver,
    stream,
    file,
    fingerprint,
    parser,
    context,
    logger: () => reader.logger(),
    readChunks: (range, advanced) => reader.readChunks(range, advanced),
  };
}

/** Whether a parser state (JSON, from the worker) has its header: a file is split only after it. */
function hasHeader(state: unknown): boolean {
  return typeof state === 'object' && state !== null && Array.isArray((state as { header?: unknown }).header);
}

/** A file newly seen, and how to tell whether a path still exists. */
interface MovedFileLookup {
  exists: (path: string) => Promise<boolean>;
  receiver: string;
  stream: StreamKey;
  file: FileSnapshot;
  prefix: Buffer;
  context: ComponentContext;
}

/**
 * A file that appears under a new name with the same first bytes as a file that is gone (log-style
 * rotation, a rename) continues from the old file's progress instead of being read twice. Found by
 * index: for each fingerprint length the stream's files were first read at (up to this file's
 * prefix), one seek and one hash, never a look at every file read so far.
 */
async function adoptMovedFile(lookup: MovedFileLookup): Promise<FileProgress | undefined> {
  const { exists, receiver, stream, file, prefix, context } = lookup;
  if (prefix.length < MIN_ADOPT_BYTES) return undefined;
  for (const length of context.store.fingerprintLengths(
    receiver,
    stream,
    MIN_ADOPT_BYTES - 1,
    prefix.length,
  )) {
    for (const candidate of context.store.filesByHead(
      receiver,
      stream,
      fingerprintOf(prefix.subarray(0, length)),
    )) {
      if (candidate.path === file.path) continue;
      const parts = context.store.partsOf(receiver, stream, candidate.path);
      if (Math.max(candidate.offset, ...parts.map((part) => part.end)) > file.size) continue;
      if (await exists(candidate.path)) continue;
      // Its parts (a file read by two threads) move with it, in one transaction.
      context.store.moveFile(receiver, stream, candidate.path, file.path);
      context.logger.info(
        `${file.path} is ${candidate.path} renamed: continuing at byte ${candidate.offset}`,
      );
      return { ...candidate, path: file.path };
    }
  }
  return undefined;
}
