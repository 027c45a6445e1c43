/**
 * The newest lines of a log, sent as they are read (issue 39): the files are walked backwards once
 * to find where the wanted lines start (only positions are kept), then read forwards in chunks that
 * the consumer pulls one at a time. A request for 100,000 lines costs a chunk of memory, not the
 * lines, and a client that does not read holds only what its socket holds.
 */
import fs from 'node:fs/promises';
import { formatSpecTimestamp } from '../../../shared/api/envelope.js';
import { type CompiledFilter, HEAD_BYTES, type LogFilter, compileFilter } from './log-filter.js';
import { lineTimestamp } from './log-reader.js';

const CHUNK = 64 * 1024;
const NEWLINE = 0x0a;
/** A longer line (none of Tributary's) is cut there, so that one line cannot cost megabytes either. */
export const MAX_LINE_BYTES = 256 * 1024;

interface Span {
  file: fs.FileHandle;
  start: number;
  end: number;
}

/** Lines of one read, oldest first; `close` must be called (the stream's owner does it once sent). */
export interface LogSlice {
  /** How many lines it holds. */
  readonly count: number;
  /** The newest line's time stamp in the log when it was opened, whatever the filter (spec form); null when unknown. */
  readonly newestLineAt: string | null;
  /** The read stopped at `lines`: older lines that match may exist (ask again with `until`). */
  readonly hasOlder: boolean;
  /** The lines as JSON texts separated by commas, in pieces of about 64 KiB (a JSON list without its brackets). */
  json(): AsyncGenerator<string>;
  /** All lines at once (the console's IPC, tests). */
  lines(): Promise<string[]>;
  close(): Promise<void>;
}

/**
 * Opens the last `lines` lines over `files` (newest file first) that pass `filter` (a time range, a
 * level, a component). The files are held open until `close`, so a rotation meanwhile changes nothing.
 */
export async function openLogSlice(files: readonly string[], lines: number, filter: LogFilter = {}): Promise<LogSlice> {
  const judge = compileFilter(filter);
  const spans: Span[] = [];
  const opened: fs.FileHandle[] = [];
  let remaining = lines;
  let newestLineAt: string | null | undefined;
  try {
    for (const path of files) {
      const file = await fs.open(path, 'r').catch(() => undefined);
      if (!file) continue;
      opened.push(file);
      const size = (await file.stat()).size;
      if (newestLineAt === undefined && size > 0) newestLineAt = await lastStamp(file, size);
      // A file that begins after `until` holds nothing wanted: not walked at all ("load older", "jump to time").
      if (judge.active && size > 0 && judge.afterUntil(await headAt(file, 0, size))) continue;
      const found = await findStart(file, size, remaining, judge);
      spans.unshift({ file, start: found.start, end: size });
      remaining -= found.count;
      if (found.stop || remaining <= 0) break;
    }
  } catch (cause) {
    await Promise.all(opened.map((f) => f.close().catch(() => undefined)));
    throw cause;
  }
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await Promise.all(opened.map((f) => f.close().catch(() => undefined)));
  };
  async function* raw(): AsyncGenerator<string> {
    for (const span of spans) yield* linesForward(span, judge);
  }
  return {
    count: lines - Math.max(0, remaining),
    newestLineAt: newestLineAt ?? null,
    hasOlder: remaining <= 0,
    async *json() {
      let piece = '';
      let first = true;
      for await (const line of raw()) {
        piece += (first ? '' : ',') + JSON.stringify(line);
        first = false;
        if (piece.length >= CHUNK) {
          yield piece;
          piece = '';
        }
      }
      if (piece !== '') yield piece;
    },
    async lines() {
      const out: string[] = [];
      for await (const line of raw()) out.push(line);
      return out;
    },
    close,
  };
}

/** The head of the line that starts at `start` (up to its end or HEAD_BYTES), as text. */
async function headAt(file: fs.FileHandle, start: number, size: number): Promise<string> {
  const head = Buffer.alloc(Math.min(HEAD_BYTES, size - start));
  const { bytesRead } = await file.read(head, 0, head.length, start);
  const bytes = head.subarray(0, bytesRead);
  const end = bytes.indexOf(NEWLINE);
  return bytes.subarray(0, end < 0 ? bytes.length : end).toString('utf8');
}

/** The time stamp of a file's last line (spec form), null when it has none, undefined for a file without lines. */
async function lastStamp(file: fs.FileHandle, size: number): Promise<string | null | undefined> {
  const last = await findStart(file, size, 1, compileFilter());
  if (last.count === 0) return undefined;
  const stamp = lineTimestamp(await headAt(file, last.start, size));
  return stamp === undefined ? null : formatSpecTimestamp(stamp);
}

/**
 * Where the last `wanted` non-empty lines of a file that pass the filter start, walking back from
 * `size`; stops early at a line stamped at or before `since` (`stop`: older files need not be looked at).
 */
async function findStart(
  file: fs.FileHandle,
  size: number,
  wanted: number,
  filter: CompiledFilter,
): Promise<{ start: number; count: number; stop: boolean }> {
  let count = 0;
  let lineEnd = size;
  let position = size;
  // The first bytes of the chunk read before (the part of the file after this chunk): a line's head may reach into it.
  let after = Buffer.alloc(0);
  const chunk = Buffer.alloc(CHUNK);
  /** The line [lineStart, lineEnd): counted, skipped, or the end of the slice. */
  const take = (lineStart: number, head: () => Buffer): { start: number; stop: boolean } | undefined => {
    if (lineEnd <= lineStart) return undefined;
    if (filter.active) {
      const verdict = filter.judge(head().subarray(0, Math.min(HEAD_BYTES, lineEnd - lineStart)).toString('utf8'));
      if (verdict === 'stop') return { start: lineEnd, stop: true };
      if (verdict === 'skip') return undefined;
    }
    count += 1;
    return count >= wanted ? { start: lineStart, stop: false } : undefined;
  };
  while (position > 0) {
    const length = Math.min(CHUNK, position);
    position -= length;
    await file.read(chunk, 0, length, position);
    const bytes = chunk.subarray(0, length);
    let i = bytes.lastIndexOf(NEWLINE);
    while (i >= 0) {
      const at = i;
      // Most heads lie within this chunk: no copy; one that reaches past it takes the next chunk's start.
      const within = at + 1 + Math.min(HEAD_BYTES, lineEnd - position - at - 1) <= length;
      const head = () =>
        within ? bytes.subarray(at + 1) : Buffer.concat([bytes.subarray(at + 1, at + 1 + HEAD_BYTES), after]);
      const done = take(position + at + 1, head);
      if (done) return { ...done, count };
      lineEnd = position + at;
      i = at === 0 ? -1 : bytes.lastIndexOf(NEWLINE, at - 1);
    }
    // The file's first chunk can be shorter than a head: the line there goes on in the chunk read before.
    after = Buffer.from(length >= HEAD_BYTES ? bytes.subarray(0, HEAD_BYTES) : Buffer.concat([bytes, after]).subarray(0, HEAD_BYTES));
  }
  const done = take(0, () => after);
  return done ? { ...done, count } : { start: 0, count, stop: false };
}

/**
 * The non-empty lines of [start, end) that pass the filter (judged on the same head as the walk
 * back), read forwards in chunks; a line longer than MAX_LINE_BYTES is cut.
 */
async function* linesForward(span: Span, filter: CompiledFilter): AsyncGenerator<string> {
  const chunk = Buffer.alloc(CHUNK);
  let position = span.start;
  let carry: Buffer[] = [];
  let carried = 0;
  let cut = false;
  const finish = (tail: Buffer): string | undefined => {
    const parts = cut ? carry : [...carry, tail.subarray(0, Math.max(0, MAX_LINE_BYTES - carried))];
    const bytes = Buffer.concat(parts);
    const wasCut = cut || carried + tail.length > MAX_LINE_BYTES;
    carry = [];
    carried = 0;
    cut = false;
    if (bytes.length === 0) return undefined;
    if (filter.active && filter.judge(bytes.subarray(0, HEAD_BYTES).toString('utf8')) !== 'take') return undefined;
    const text = bytes.toString('utf8');
    return wasCut ? `${text} … (line cut at ${MAX_LINE_BYTES / 1024} KiB)` : text;
  };
  while (position < span.end) {
    const { bytesRead } = await span.file.read(chunk, 0, Math.min(CHUNK, span.end - position), position);
    if (bytesRead === 0) break;
    position += bytesRead;
    const bytes = chunk.subarray(0, bytesRead);
    let from = 0;
    for (let i = bytes.indexOf(NEWLINE); i >= 0; i = bytes.indexOf(NEWLINE, from)) {
      const line = finish(bytes.subarray(from, i));
      if (line !== undefined) yield line;
      from = i + 1;
    }
    const rest = bytes.subarray(from);
    if (!cut && rest.length > 0) {
      const room = MAX_LINE_BYTES - carried;
      carry.push(Buffer.from(rest.subarray(0, room)));
      carried += Math.min(room, rest.length);
      if (rest.length > room) cut = true;
    }
  }
  const last = finish(Buffer.alloc(0));
  if (last !== undefined) yield last;
}
