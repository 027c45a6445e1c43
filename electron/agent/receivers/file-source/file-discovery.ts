import path from 'node:path';
import { streamId } from '../../../../shared/config/streams.js';
import { ReadSummary } from '../../logging/read-summary.js';
import type { StreamKey } from '../../components/contract.js';
import { BufferFullError } from '../../components/contract.js';
import type { ComponentContext } from '../../components/contract.js';
import { readFile } from './file-reader.js';
import { readDocument, threadDeathSaid } from './document-file.js';
import { isDocumentParser } from '../../../../shared/config/parsers/kinds.js';
import type { SplitOptions } from './file-split.js';
import { INLINE_CHUNK_BYTES, type ParseWorkers } from '../../workers/parse-worker-pool.js';
import { type StorageHealth, isDiskFull } from '../../disk/storage-health.js';
import { STORE_AREA } from '../../store/agent-store.js';
import { ProgressPruner } from './progress-pruner.js';
import type { FileStream } from './file-streams.js';
import type { FileAccess, ListedFile } from './file-access.js';
import { isThreadDeath } from '../../workers/worker-client.js';
import { readFailedSaid } from './file-messages.js';
import { say, type AgentMessage } from '../../../../shared/config/message.js';

/** How long a file must stay unchanged before a last line without newline counts as complete. */
export const SETTLE_MS = 10_000;
/** Folder levels below a connection's folder that are listed. */
export const MAX_DEPTH = 8;

/** A file's entry in the looks: its stream, then its path. */
const lookKeyOf = (stream: StreamKey, path: string) => `${streamId(stream.asset, stream.stream_type)}\0${path}`;

interface Look {
  size: number;
  mtimeMs: number;
  /** When the file was first seen at this size and mtime. */
  unchangedSince: number;
  /** When it was last read, or first seen. */
  readAt: number;
}

/**
 * What every file receiver does with a listed file: a file is read once its size and modification
 * time were the same on two looks in a row, and a file that keeps changing (a logger appending all
 * the time, a long copy) once every poll interval meanwhile, its complete lines only; reading goes
 * on from where its progress stopped. With delete_completed a file is deleted once all of it is
 * committed and it was the same on two looks (never while it is still being written).
 */
export class FileDiscovery {
  private readonly looks = new Map<string, Look>();
  /** Files that ended a parse thread, by look key: size:mtime then (skipped until they change). */
  private readonly killers = new Map<string, string>();
  /**
   * Files waiting for their next look with more than a few rows to read (look keys): as many parse
   * threads as these files (two for one that will be split) start meanwhile, so that a drop of
   * several big files is read on every thread from its first chunk.
   */
  private readonly coming = new Set<string>();
  /** Reads per file, logged as a summary per minute rather than a line per poll. */
  private readonly reads = new ReadSummary();

  constructor(
    private readonly options: {
      receiver: string;
      pollIntervalSeconds: number;
      deleteCompleted: boolean;
      context: ComponentContext;
      worker: ParseWorkers;
      running: () => boolean;
      /** Aborted when the receiver stops (chunks still waiting for a parse thread are dropped). */
      signal?: () => AbortSignal | undefined;
      /** Where a full disk is reported (status), besides this receiver's markers. */
      storage?: StorageHealth;
      /**
       * Big complete files are read by two parse threads (file-split.ts); absent: one thread per
       * file.
       */
      split?: SplitOptions;
      /** Progress of files missing from the listing this long is forgotten (progress-pruner.ts). */
      pruneAfterMs?: number;
      pruneEveryMs?: number;
    },
  ) {
    const { receiver, context, running, pruneAfterMs, pruneEveryMs } = options;
    this.pruner = new ProgressPruner({
      receiver,
      store: context.store,
      logger: context.logger,
      running,
      pruneAfterMs,
      pruneEveryMs,
    });
  }

  private readonly pruner: ProgressPruner;
  /**
   * Per stream (its id), the files whose read failed → the failure as last reported (size, time,
   * message): a file that cannot be read is logged once per change, not every poll; its stream's
   * marker stays while any of its files fails. By stream, so that a read costs no look at every
   * failing file.
   */
  private readonly failures = new Map<
    string,
    { stream: StreamKey; files: Map<string, { what: string; said: AgentMessage }> }
  >();

  /**
   * Whether pruning of vanished files' progress is due after this listing (build `listed` only
   * then).
   */
  pruneDue(): boolean {
    return this.pruner.due();
  }

  /**
   * After a complete listing: forgets the progress of files missing for the grace period
   * (ProgressPruner).
   */
  prune(listed: ReadonlySet<string>, covered: (path: string) => boolean): Promise<number> {
    return this.pruner.prune(listed, covered);
  }

  /** Streams with a disk_full marker: their records could not be stored. */
  private readonly diskFull = new Set<string>();

  /**
   * Writes the read summaries that are due (after a scan), or all of them (`all`, when stopping).
   */
  flushReadLog(all = false): void {
    this.reads.flush(all);
  }

  /** Restream: forget the looks of these streams. */
  purge(streams: readonly StreamKey[]): void {
    for (const key of this.looks.keys())
      if (streams.some((s) => key.startsWith(lookKeyOf(s, '')))) this.forget(key);
  }

  /** Forget files no longer listed, so the map does not grow with every file ever seen. */
  retain(seen: ReadonlySet<string>, under: string): void {
    for (const key of this.looks.keys()) {
      const file = key.slice(key.indexOf('\0') + 1);
      if (file.startsWith(under) && !seen.has(file)) this.forget(key);
    }
  }

  private forget(lookKey: string): void {
    this.looks.delete(lookKey);
    this.coming.delete(lookKey);
    // A failing file gone from the listing: its stream's marker goes with the last of them.
    const split = lookKey.indexOf('\0');
    const failing = this.failures.get(lookKey.slice(0, split));
    if (failing?.files.delete(lookKey.slice(split + 1)) && failing.files.size === 0) {
      this.failures.delete(lookKey.slice(0, split));
      this.options.context.markers.clear('read_failed', [failing.stream]);
    }
  }

  /** Whether the file was looked at before (a new one is read on its second look). */
  seen(stream: FileStream, path: string): boolean {
    return this.looks.has(lookKeyOf(stream.key, path));
  }

  /**
   * Looks at one listed file and reads or deletes it when due. Returns true when the file is still
   * changing (or was seen for the first time): the caller should look again soon.
   */
  async visit(
    stream: FileStream,
    file: ListedFile,
    access: FileAccess,
    worker: ParseWorkers = this.options.worker,
  ): Promise<boolean> {
    const { context, receiver } = this.options;
    const lookKey = lookKeyOf(stream.key, file.path);
    const previous = this.looks.get(lookKey);
    const now = Date.now();
    const same =
      previous !== undefined && previous.size === file.size && previous.mtimeMs === file.mtimeMs;
    // Changing since the last read for a poll interval: read what is complete of it anyway.
    const due =
      same ||
      (previous !== undefined &&
        now - previous.readAt >= Math.max(1000, this.options.pollIntervalSeconds * 1000));
    const look = {
      size: file.size,
      mtimeMs: file.mtimeMs,
      unchangedSince: same ? previous.unchangedSince : now,
      readAt: previous?.readAt ?? now,
    };
    this.looks.set(lookKey, look);
    const progress = context.store.fileProgress(receiver, stream.key, file.path);
    const done =
      progress !== undefined &&
      progress.size === file.size &&
      progress.mtimeMs === file.mtimeMs &&
      progress.offset >= file.size;
    if (done && !this.options.deleteCompleted) return false;
    const unread = file.size - (progress?.offset ?? 0);
    if (!due && !done) {
      // Still changing (or first look). More than a few rows to read: parse threads can start
      // meanwhile, instead of when the read begins (ParseWorkerPool, INLINE_CHUNK_BYTES).
      if (unread > INLINE_CHUNK_BYTES) {
        this.coming.add(lookKey);
        const split =
          this.options.split !== undefined &&
          !access.readRange &&
          unread >= this.options.split.minBytes;
        worker.warm?.(Math.max(split ? 2 : 1, this.coming.size));
      }
      return true;
    }
    this.coming.delete(lookKey);
    if (!stream.parser) return false;
    const killer = this.killers.get(lookKey);
    if (killer === `${file.size}:${file.mtimeMs}`) return false;
    if (killer !== undefined) this.killers.delete(lookKey);
    try {
      let snapshot: { size: number; mtimeMs: number } = file;
      if (access.confirm && (!done || same)) {
        // The listing may lag behind the file (Windows updates the entry of an open file late): ask
        // the file itself before reading it or deleting it.
        const confirmed = await access.confirm(file.path);
        if (!confirmed) return false; // gone since the listing
        if (confirmed.size !== file.size || confirmed.mtimeMs !== file.mtimeMs) {
          if (same || done) {
            // Said unchanged, but it is not: look again.
            this.looks.set(lookKey, {
              ...confirmed,
              unchangedSince: Date.now(),
              readAt: look.readAt,
            });
            return true;
          }
          snapshot = confirmed; // changing and due: read what is there now
        }
      }
      if (!done) look.readAt = now;
      const result = done
        ? { complete: true, records: 0 }
        : await (isDocumentParser(stream.parser) ? readDocument : readFile)({
            receiver,
            stream: stream.key,
            file: {
              path: file.path,
              size: snapshot.size,
              mtimeMs: snapshot.mtimeMs,
              settled:
                Date.now() - look.unchangedSince >=
                Math.max(SETTLE_MS, 3 * this.options.pollIntervalSeconds * 1000),
            },
            parser: stream.parser,
            context,
            worker,
            signal: this.options.signal?.(),
            readPrefix: (length) => access.readPrefix(file.path, length),
            readRange: access.readRange
              ? (offset, length) => access.readRange!(file.path, offset, length)
              : undefined,
            exists: (candidate) => access.exists(candidate),
            // Only a complete file (the same on two looks) is split: a file still being written
            // stays on one thread.
            split: same && snapshot === file ? this.options.split : undefined,
          });
      if (result.records > 0)
        this.reads.note(
          file.path,
          result.records,
          context.logger.child(
            context.logger.component,
            'thread' in result ? result.thread : context.logger.thread,
          ),
        );
      this.readAgain(stream.key, file.path);
      if (!done) this.storedAgain(stream.key);
      if (result.complete && this.options.deleteCompleted) {
        // Only a file that was the same on two looks is deleted: one still being written (read
        // because it keeps changing) waits until it is quiet, so nothing written after the read is
        // lost.
        if (!same || snapshot !== file) return true;
        await this.deleteCompleted(stream.key, file.path, access);
      }
      return false;
    } catch (cause) {
      if (!this.options.running()) return false;
      if (cause instanceof BufferFullError) return false; // marked by the pipeline; the file waits
      if (isDiskFull(cause)) {
        this.cannotStore(stream.key, file.path, cause);
        return false;
      }
      if (isThreadDeath(cause)) {
        // Read again, it would end the next thread too: not until the file changes.
        this.killers.set(lookKey, `${file.size}:${file.mtimeMs}`);
        this.readFailed(stream.key, file, cause, 'until_changed');
        return false;
      }
      const kind = access.classify?.(cause) ?? 'file';
      if (kind === 'source') throw cause;
      if (kind === 'busy') return true;
      this.readFailed(stream.key, file, cause);
      return false;
    }
  }

  /**
   * A file of the stream cannot be read: the stream's marker names it (and how many others fail);
   * the log has a line when this file's failure is new or changed (another error, the file
   * changed).
   */
  private readFailed(stream: StreamKey, file: ListedFile, cause: unknown, again: 'next_look' | 'until_changed' = 'next_look'): void {
    const { context } = this.options;
    const error = cause as NodeJS.ErrnoException;
    const why =
      error.code === 'EACCES' || error.code === 'EPERM'
        ? say('file.permission_denied', 'permission denied')
        : isThreadDeath(cause)
          ? threadDeathSaid(cause)
          : ((cause as { said?: AgentMessage }).said ?? error.message ?? String(cause));
    const said = readFailedSaid(file.path, why, again);
    const message = said.text;
    const what = `${file.size}:${file.mtimeMs}:${message}`;
    const id = streamId(stream.asset, stream.stream_type);
    let failing = this.failures.get(id);
    if (!failing) this.failures.set(id, (failing = { stream, files: new Map() }));
    const before = failing.files.get(file.path);
    failing.files.set(file.path, { what, said });
    const others = failing.files.size - 1;
    context.markers.raise(
      [stream],
      'error',
      'read_failed',
      others > 0 ? readFailedSaid(file.path, why, again, others) : said,
    );
    if (before?.what !== what) context.logger.error(message);
  }

  /**
   * A file was read: its failure (if any) is over; the marker goes when no file of the stream
   * fails.
   */
  private readAgain(stream: StreamKey, file: string): void {
    const { context } = this.options;
    const id = streamId(stream.asset, stream.stream_type);
    const failing = this.failures.get(id);
    if (!failing) return context.markers.clear('read_failed', [stream]);
    if (!failing.files.delete(file)) return;
    context.logger.info(`${file} can be read again.`);
    const next = failing.files.values().next().value;
    if (next) context.markers.raise([stream], 'error', 'read_failed', next.said);
    else {
      this.failures.delete(id);
      context.markers.clear('read_failed', [stream]);
    }
  }

  /**
   * The records of a file could not be stored (full disk): nothing of them was committed, so the
   * file is read again from the same place on a later look. Marked on the stream and in status.
   */
  private cannotStore(stream: StreamKey, file: string, cause: unknown): void {
    const { context } = this.options;
    const said = say('file.disk_full', '{error} {file} is read on from where it stopped once there is room.', { error: (cause as Error).message, file });
    const message = said.text;
    context.markers.raise([stream], 'error', 'disk_full', said);
    this.options.storage?.report(
      STORE_AREA,
      path.dirname(context.store.file),
      cause,
      `${path.basename(context.store.file)} (progress and outbox)`,
    );
    const id = streamId(stream.asset, stream.stream_type);
    if (!this.diskFull.has(id)) context.logger.error(message);
    this.diskFull.add(id);
  }

  private storedAgain(stream: StreamKey): void {
    if (!this.diskFull.delete(streamId(stream.asset, stream.stream_type))) return;
    this.options.context.markers.clear('disk_full', [stream]);
    this.options.context.logger.info(
      `Records of ${streamId(stream.asset, stream.stream_type)} are stored again.`,
    );
    this.options.storage?.resolve(STORE_AREA);
  }

  private async deleteCompleted(
    stream: StreamKey,
    file: string,
    access: FileAccess,
  ): Promise<void> {
    const { context, receiver } = this.options;
    try {
      await access.remove(file);
      context.store.forgetFile(receiver, stream, file);
      this.forget(lookKeyOf(stream, file));
      context.logger.info(`${file} deleted after reading (delete_completed)`);
      context.markers.clear('delete_failed', [stream]);
    } catch (cause) {
      if (access.classify?.(cause) === 'source') throw cause;
      const said = say('file.delete_failed', '{file} was read but could not be deleted: {reason}', { file, reason: access.describeDeleteError?.(cause) ?? (cause as Error).message });
      context.markers.raise([stream], 'warning', 'delete_failed', said);
      context.logger.warn(said.text);
    }
  }
}
