/**
 * One big file read by two parse threads at once
 * (docs/decisions/0024-one-file-on-both-parse-threads.md). Its unread range is cut at a record
 * boundary (record-boundary.ts) into two parts; each part has its own durable progress, committed
 * with its records chunk by chunk as a whole file's is, so each part is exactly-once on its own;
 * once the first part is read to its end, one transaction replaces the parts with the file's own
 * progress where the second part stopped.
 */
import type { Parser } from '../../../../shared/config/schema.js';
import type { ComponentContext, FilePart, FileProgress, StreamKey } from '../../components/contract.js';
import type { Logger } from '../../logging/logger.js';
import { type SpreadsheetState, checkSpreadsheetState, readSpreadsheetState } from '../../parsers/spreadsheet/index.js';
import { findRecordCut, mergedState, splitRefusal, stateAfterCut } from '../../parsers/spreadsheet/record-boundary.js';
import { withFileReader } from './read-range.js';
import { breathe } from '../../lifecycle/index.js';

/** When a file is cut in two. */
export interface SplitOptions {
  /** Unread bytes from which a complete local file is read by two threads. */
  minBytes: number;
  /** A record longer than this on the way to the cut: not split (default 1 MiB). */
  maxRecordBytes?: number;
}

/**
 * Below this much unread, one thread reads a file: the scan for the cut and the merge cost more
 * than they save.
 */
export const DEFAULT_SPLIT_BYTES = 32 * 1024 * 1024;

/** The split threshold for file receivers: the default, or none when turned off (0 or less). */
export function splitThreshold(configured: number | undefined): number | undefined {
  if (configured === undefined) return DEFAULT_SPLIT_BYTES;
  return configured > 0 ? configured : undefined;
}
const MAX_RECORD_BYTES = 1024 * 1024;

/**
 * A byte range of a file read chunk after chunk: the whole unread file, or one part of a split
 * file.
 */
export interface ChunkRange {
  offset: number;
  end: number;
  state: unknown;
  /**
   * The range ends where the file ends and the file is complete: a last line without newline is
   * read.
   */
  final: boolean;
  /** The part of a split file starting here (its progress is committed to the part). */
  part?: number;
  /** Stop after one chunk (stop: `paused`). */
  oneChunk?: boolean;
}

export interface RangeOutcome {
  offset: number;
  state: unknown;
  records: number;
  /**
   * `end`: read to the range's end; `waiting`: an incomplete last line; `fatal`: stopped at a bad
   * line (marked); `paused`: oneChunk.
   */
  stop: 'end' | 'waiting' | 'fatal' | 'paused';
}

/** What splitting and reading parts needs of the file reader (file-reader.ts). */
export interface SplitContext {
  receiver: string;
  stream: StreamKey;
  file: { path: string; size: number; mtimeMs: number; settled: boolean };
  fingerprint: string;
  parser: Parser;
  context: ComponentContext;
  logger: () => Logger;
  /**
   * Reads a range chunk after chunk; `advanced` is told the bytes read of the range after each
   * chunk.
   */
  readChunks: (range: ChunkRange, advanced: (bytes: number) => void) => Promise<RangeOutcome>;
}

/**
 * Cuts the unread range [offset, file end) in two at the first record boundary past its middle and
 * stores the parts (one transaction, before any part is read). Returns the parts, or none when the
 * file is not split (options or encoding the parts could not read alike, no boundary found, or its
 * progress moved meanwhile): then one thread reads on.
 */
export async function splitFile(
  split: SplitContext,
  options: SplitOptions,
  offset: number,
  state: unknown,
): Promise<FilePart[]> {
  const { file, context } = split;
  const parsed = checkSpreadsheetState(state);
  if (typeof parsed === 'string' || splitRefusal(split.parser, parsed) !== undefined) return [];
  const cut = await withFileReader(file.path, (read) =>
    findRecordCut({
      config: split.parser,
      state: parsed,
      read,
      from: offset,
      target: offset + Math.floor((file.size - offset) / 2),
      end: file.size,
      maxRecordBytes: options.maxRecordBytes ?? MAX_RECORD_BYTES,
      // The scan reads the first part once more at memory speed: the API thread answers in between.
      pause: breathe,
    }),
  );
  if (!cut) return [];
  const parserState = JSON.stringify(parsed);
  const second = stateAfterCut(parsed, cut);
  const parts: FilePart[] = [
    { start: offset, end: cut.offset, offset, parserState },
    { start: cut.offset, end: file.size, offset: cut.offset, parserState: JSON.stringify(second) },
  ];
  const progress: FileProgress = {
    path: file.path,
    size: file.size,
    mtimeMs: file.mtimeMs,
    offset,
    fingerprint: split.fingerprint,
    parserState,
  };
  if (!context.store.splitFile(split.receiver, split.stream, progress, offset, parts)) return [];
  split
    .logger()
    .info(
      `${file.path}: read by two parse threads, bytes ${offset}–${cut.offset} and ${cut.offset}–${file.size} (from line ${second.linesSeen + 1})`,
    );
  return parts;
}

/**
 * Reads the parts of a split file at the same time (each on whichever parse thread is free) and,
 * once every part but the last is read to its end, merges them into the file's progress. Both
 * readings are waited for before anything else happens, even when one fails, so that no part is
 * ever read by two readers at once.
 */
export async function readParts(
  split: SplitContext,
  parts: readonly FilePart[],
  show: (bytesRead: number) => void,
): Promise<{ records: number; merged?: FileProgress }> {
  const { file, context } = split;
  const read = parts.map((part) => part.offset - part.start);
  const report = () => show(parts[0]!.start + read.reduce((sum, bytes) => sum + bytes, 0));
  const last = parts.length - 1;
  const outcomes = await Promise.allSettled(
    parts.map((part, i) =>
      part.offset >= part.end
        ? Promise.resolve<RangeOutcome>({
            offset: part.offset,
            state: JSON.parse(part.parserState),
            records: 0,
            stop: 'end',
          })
        : split.readChunks(
            // Only the last part may end with a line without newline (the others end at a record
            // boundary).
            {
              offset: part.offset,
              end: part.end,
              state: JSON.parse(part.parserState),
              final: i === last && file.settled && file.size === part.end,
              part: part.start,
            },
            (bytes) => {
              read[i] = part.offset - part.start + bytes;
              report();
            },
          ),
    ),
  );
  const failed = outcomes.find((outcome) => outcome.status === 'rejected');
  if (failed) throw failed.reason;
  const records = outcomes.reduce(
    (sum, outcome) => sum + (outcome.status === 'fulfilled' ? outcome.value.records : 0),
    0,
  );
  // From the parts as stored (not as this reader saw them), in the same transaction that replaces
  // them.
  const merged = context.store.mergeParts(
    split.receiver,
    split.stream,
    { path: file.path, size: file.size, mtimeMs: file.mtimeMs, fingerprint: split.fingerprint },
    mergeOf,
  );
  if (merged) split.logger().info(`${file.path}: both parts read, merged at byte ${merged.offset}`);
  return { records, merged };
}

/**
 * The file's progress made of its parts once all but the last are read to their end; undefined
 * before.
 */
export function mergeOf(parts: FilePart[]): { offset: number; parserState: string } | undefined {
  for (let i = 0; i + 1 < parts.length; i += 1)
    if (parts[i]!.offset !== parts[i]!.end || parts[i]!.end !== parts[i + 1]!.start)
      return undefined;
  let state: SpreadsheetState = readSpreadsheetState(JSON.parse(parts[0]!.parserState));
  for (const part of parts.slice(1))
    state = mergedState(state, readSpreadsheetState(JSON.parse(part.parserState)));
  return { offset: parts.at(-1)!.offset, parserState: JSON.stringify(state) };
}
