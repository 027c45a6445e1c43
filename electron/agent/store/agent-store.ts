import type Database from 'better-sqlite3';
import path from 'node:path';
import type { CommitProgress, FilePart, FileProgress, OutboxBatch, StreamKey } from '../components/contract.js';
import { type StorageHealth, describeWriteFailure, errorCode, isDiskFull } from '../disk/storage-health.js';
import { BUSY_TIMEOUT_MS, type OpenStore, type OutboxEntry, OutboxFullError, type StoreCommit, type StreamRead, openStore } from './open-store.js';

export { type OutboxEntry, OutboxFullError, type StoreCommit, type StreamRead } from './open-store.js';

/** What a stream read since its first record, kept across restarts (stream_totals). */
export interface StreamTotals {
  receiver: string;
  asset: string;
  stream_type: string;
  recordsRead: number;
  /** Epoch ms of the commit of the newest record. */
  lastRecordAt: number | null;
  lastRecordTimestamp: string | null;
}

/** One stream's records at one transmit: waiting in the outbox, and sent (delivered and removed). */
export interface OutboxStream {
  transmit: string;
  asset: string;
  stream_type: string;
  waiting: number;
  sent: number;
  /** Epoch ms the oldest waiting batch was committed; null when none waits. */
  oldestAt: number | null;
}

/** ackWhenFree: the next try when the write lock was taken, and how long it tries so. */
const ACK_RETRY_MS = 2;
const ACK_PATIENCE_MS = 2000;

/** The StorageHealth area of the agent's database. */
export const STORE_AREA = 'store';

export type { OutboxBatch } from '../components/contract.js';

/**
 * SQLite's "database or disk is full" names neither the disk nor the file: say which folder is
 * full and that nothing of the failed write was stored (the transaction was rolled back).
 */
export function explainStoreError(cause: unknown, file: string): Error {
  if (!isDiskFull(cause)) return cause instanceof Error ? cause : new Error(String(cause));
  const error = new Error(describeWriteFailure(cause, path.dirname(file), `${path.basename(file)} (progress and outbox)`)) as Error & { code?: string };
  error.code = errorCode(cause) ?? 'SQLITE_FULL';
  return error;
}

/**
 * The agent's embedded database (SQLite, WAL): receiver progress and the outbox between the
 * pipeline and each transmit. Records enter the outbox in the same transaction that advances the
 * progress of their source, so a crash at any point loses nothing and re-reads at most what was not
 * committed; a transmit deletes a batch only after its destination has it.
 */
export class AgentStore {
  private opened: OpenStore | undefined;
  /** Why the database could not be opened, and when to try again. */
  private openFailure: { error: Error; retryAt: number } | undefined;
  /** Outbox bytes per transmit, kept in memory so that back-pressure checks cost nothing. */
  private readonly queuedBytes = new Map<string, number>();
  private closed = false;
  /** Delivery totals not yet written (the write lock was taken): see addTransmitTotals. */
  private readonly pendingTotals = new Map<string, { transmit: string; type: string; bytes: number; errors: number }>();

  /**
   * Opens `file` (created when missing). A database that cannot be opened (a full disk at first
   * start, a folder that cannot be created) does not fail the constructor: every use tries again
   * (at most once a second) and throws the reason meanwhile, so the agent comes up and says why.
   */
  constructor(
    readonly file: string,
    /** Told when a write fails for lack of space and when one works again (main thread only). */
    private readonly health?: StorageHealth,
  ) {
    try {
      this.handle();
    } catch {
      // Reported by the first use.
    }
  }

  private handle(): OpenStore {
    if (this.opened) return this.opened;
    if (this.closed) throw new Error(`${this.file} is closed`);
    if (this.openFailure && Date.now() < this.openFailure.retryAt) throw this.openFailure.error;
    try {
      this.opened = openStore(this.file);
      this.openFailure = undefined;
      return this.opened;
    } catch (cause) {
      const error = explainStoreError(cause, this.file);
      this.openFailure = { error, retryAt: Date.now() + 1000 };
      throw error;
    }
  }

  private get db(): Database.Database {
    return this.handle().db;
  }

  private get statements(): OpenStore['statements'] {
    return this.handle().statements;
  }

  fileProgress(receiver: string, stream: StreamKey, filePath: string): FileProgress | undefined {
    return this.statements.getFile.get(receiver, stream.asset, stream.stream_type, filePath) as FileProgress | undefined;
  }

  filesOf(receiver: string, stream: StreamKey): FileProgress[] {
    return this.statements.filesOf.all(receiver, stream.asset, stream.stream_type) as FileProgress[];
  }

  /**
   * The fingerprint lengths of a stream's files in (above, upTo], in order, each found by one index
   * seek: a renamed file is looked for at each length its first bytes may have been read at.
   */
  *fingerprintLengths(receiver: string, stream: StreamKey, above: number, upTo: number): Generator<number> {
    for (let last = above; ; ) {
      const row = this.statements.nextFingerprintLength.get(receiver, stream.asset, stream.stream_type, last, upTo) as { length: number } | undefined;
      if (!row) return;
      yield (last = row.length);
    }
  }

  /** Files of a stream whose first bytes have this fingerprint (`length:hash`; a version suffix of a rewrite included). */
  filesByHead(receiver: string, stream: StreamKey, head: string): FileProgress[] {
    const length = Number(head.slice(0, head.indexOf(':')));
    return this.statements.filesByHead.all(receiver, stream.asset, stream.stream_type, length, head, `${head}\x7f`) as FileProgress[];
  }

  /** Up to `limit` of a receiver's files with progress after `after` (key order): pruning walks them page by page. */
  progressPage(receiver: string, after: { asset: string; stream_type: string; path: string } | undefined, limit: number): { asset: string; stream_type: string; path: string }[] {
    return this.statements.progressPage.all(receiver, after?.asset ?? '', after?.stream_type ?? '', after?.path ?? '', limit) as { asset: string; stream_type: string; path: string }[];
  }

  streamState(receiver: string, stream: StreamKey, key: string): string | undefined {
    return (this.statements.getState.get(receiver, stream.asset, stream.stream_type, key) as { value: string } | undefined)?.value;
  }

  /**
   * Atomically: queue the records for their transmits and record how far the source was read.
   * Either both happen or neither (crash, power cut). With `limits` (outbox bytes per transmit),
   * throws OutboxFullError and commits nothing when an outbox would pass its limit. Commits come
   * from this connection or a parse worker's: the pipeline tells the main thread's store what was
   * queued (noteQueued) either way.
   */
  commit(receiver: string, stream: StreamKey, entries: readonly OutboxEntry[], progress: CommitProgress, limits?: ReadonlyMap<string, number>, read?: StreamRead): void {
    this.write(() => this.handle().commit.immediate(receiver, stream, entries, progress, limits, read));
  }

  /**
   * commit() for the batches of several streams at once, in one transaction (one WAL sync): all of
   * them or none. The limits hold for the batches together.
   */
  commitAll(commits: readonly StoreCommit[], limits?: ReadonlyMap<string, number>): void {
    this.write(() => this.handle().commitAll.immediate(commits, limits));
  }

  /** Forgets a file's progress, its parts included (one transaction). */
  forgetFile(receiver: string, stream: StreamKey, filePath: string): void {
    this.write(() =>
      this.db.transaction(() => {
        this.statements.deleteParts.run(receiver, stream.asset, stream.stream_type, filePath);
        this.statements.deleteFile.run(receiver, stream.asset, stream.stream_type, filePath);
      })(),
    );
  }

  /** Forgets the progress of many files (pruning of vanished files), in one transaction. */
  forgetFiles(receiver: string, files: readonly { asset: string; stream_type: string; path: string }[]): void {
    this.write(() =>
      this.db.transaction(() => {
        for (const file of files) {
          this.statements.deleteParts.run(receiver, file.asset, file.stream_type, file.path);
          this.statements.deleteFile.run(receiver, file.asset, file.stream_type, file.path);
        }
      })(),
    );
  }

  /** The parts of a file read by two threads at once, in file order (none when it is not split). */
  partsOf(receiver: string, stream: StreamKey, filePath: string): FilePart[] {
    return this.statements.partsOf.all(receiver, stream.asset, stream.stream_type, filePath) as FilePart[];
  }

  /**
   * Splits a file's unread range into parts, in one transaction with the file's own progress (which
   * stays where the parts begin until they are merged), before any part is read: a crash leaves
   * either no split or the whole split. Nothing is written (false) unless the file's progress is
   * still at `expectedOffset` without parts (no other reader moved it meanwhile).
   */
  splitFile(receiver: string, stream: StreamKey, file: FileProgress, expectedOffset: number | undefined, parts: readonly FilePart[]): boolean {
    const { statements } = this;
    return this.write(() =>
      this.db.transaction(() => {
        const current = statements.getFile.get(receiver, stream.asset, stream.stream_type, file.path) as FileProgress | undefined;
        if (current?.offset !== expectedOffset || statements.partsOf.all(receiver, stream.asset, stream.stream_type, file.path).length > 0) return false;
        const now = Date.now();
        statements.putFile.run({ receiver, asset: stream.asset, stream_type: stream.stream_type, tail: '', ...file, now });
        for (const part of parts) statements.putPart.run(receiver, stream.asset, stream.stream_type, file.path, part.start, part.end, part.offset, part.parserState, now);
        return true;
      }).immediate(),
    );
  }

  /**
   * Replaces a split file's parts with its own progress, in one transaction, as `merge` makes it of
   * the parts as stored (undefined: not yet, nothing changes). Returns the merged progress.
   */
  mergeParts(receiver: string, stream: StreamKey, file: Omit<FileProgress, 'offset' | 'parserState'>, merge: (parts: FilePart[]) => { offset: number; parserState: string } | undefined): FileProgress | undefined {
    const { statements } = this;
    return this.write(() =>
      this.db.transaction(() => {
        const parts = statements.partsOf.all(receiver, stream.asset, stream.stream_type, file.path) as FilePart[];
        const merged = parts.length > 0 ? merge(parts) : undefined;
        if (!merged) return undefined;
        const progress = { ...file, ...merged };
        statements.deleteParts.run(receiver, stream.asset, stream.stream_type, file.path);
        statements.putFile.run({ receiver, asset: stream.asset, stream_type: stream.stream_type, tail: '', ...progress, now: Date.now() });
        return progress;
      }).immediate(),
    );
  }

  /** A renamed (rotated) file keeps its progress and parts under the new name (one transaction). */
  moveFile(receiver: string, stream: StreamKey, from: string, to: string): void {
    this.write(() =>
      this.db.transaction(() => {
        this.statements.deleteParts.run(receiver, stream.asset, stream.stream_type, to);
        this.statements.deleteFile.run(receiver, stream.asset, stream.stream_type, to);
        this.statements.moveFile.run(to, receiver, stream.asset, stream.stream_type, from);
        this.statements.moveParts.run(to, receiver, stream.asset, stream.stream_type, from);
      }).immediate(),
    );
  }

  /** Runs a write, saying "disk full at <folder>" when that is why it failed. */
  private write<T>(work: () => T): T {
    let result: T;
    try {
      result = work();
    } catch (cause) {
      if (cause instanceof OutboxFullError) throw cause;
      const error = explainStoreError(cause, this.file);
      if (isDiskFull(error)) this.health?.report(STORE_AREA, path.dirname(this.file), cause, `${path.basename(this.file)} (progress and outbox)`);
      throw error;
    }
    if (this.health?.problem(STORE_AREA)) this.health.resolve(STORE_AREA);
    return result;
  }

  /** Restream: forget everything read for these streams, so the receiver reads it all again. */
  purge(receiver: string, streams: readonly StreamKey[]): void {
    this.write(() =>
      this.db.transaction(() => {
        for (const s of streams) {
          this.statements.purgeFiles.run(receiver, s.asset, s.stream_type);
          this.statements.purgeParts.run(receiver, s.asset, s.stream_type);
          this.statements.purgeState.run(receiver, s.asset, s.stream_type);
        }
      })(),
    );
  }

  /** The oldest queued batches of a transmit, at most `limit`. */
  peek(transmit: string, limit: number): OutboxBatch[] {
    return this.statements.peek.all(transmit, limit) as OutboxBatch[];
  }

  /** Ids and sizes of the oldest queued batches, without their records (cheap). */
  peekMeta(transmit: string, limit: number): { id: number; records: number; bytes: number }[] {
    return this.statements.peekMeta.all(transmit, limit) as { id: number; records: number; bytes: number }[];
  }

  /** The stored payloads of queued batches, by id, in the given order (missing ids are left out). */
  payloadsOf(transmit: string, ids: readonly number[]): { id: number; format: string; payload: Buffer }[] {
    const out: { id: number; format: string; payload: Buffer }[] = [];
    for (const id of ids) {
      const row = this.statements.payload.get(id, transmit) as { payload: Buffer; format: string } | undefined;
      if (row) out.push({ id, format: row.format, payload: row.payload });
    }
    return out;
  }

  /** Another connection removed batches of a transmit: read its outbox size again when asked. */
  forgetQueued(transmit: string): void {
    this.queuedBytes.delete(transmit);
  }

  /** A commit (on this connection or a parse worker's) queued this many bytes for a transmit. */
  noteQueued(transmit: string, bytes: number): void {
    // Not cached yet: the first read of the database will include these bytes.
    const cached = this.queuedBytes.get(transmit);
    if (cached !== undefined) this.queuedBytes.set(transmit, cached + bytes);
  }

  /**
   * The destination has these batches: remove them. Without a WAL sync of its own (the next commit's
   * sync covers it): an ack lost to a power cut only sends those batches again (at-least-once; a
   * kill -9 loses nothing, the OS has the write), and the write lock is held for a fraction of the
   * time, which the parse workers' commits and the thread that acks (for mqtt the API's) feel.
   */
  ack(transmit: string, ids: readonly number[]): void {
    const { db, statements, ack } = this.handle();
    // Not as prepared statements: SQLite applies this pragma when a statement is compiled, so a
    // prepared one takes effect only on every other run.
    db.pragma('synchronous = NORMAL');
    try {
      this.write(() => ack(transmit, ids));
    } finally {
      db.pragma('synchronous = FULL');
    }
    // From the (transmit, bytes) index alone: a backlog of thousands of batches costs no table reads.
    this.queuedBytes.set(transmit, (statements.backlogBytes.get(transmit) as { bytes: number }).bytes);
  }

  /**
   * ack() for the API thread: it never waits there for the write lock that a parse thread holds
   * through its commit's sync (tens of ms on a slow disk, measured as stalls of the console's
   * status in the first second of a big drop). When the lock is taken the delete is tried again
   * ACK_RETRY_MS later, the event loop free meanwhile; after ACK_PATIENCE_MS it waits as ack() does.
   * Once `signal` aborts (the transmit stops) it gives up with an error: the batches stay queued and
   * are sent again, which at-least-once delivery allows, rather than hold up the stop.
   */
  async ackWhenFree(transmit: string, ids: readonly number[], signal?: AbortSignal): Promise<void> {
    const giveUpAt = Date.now() + ACK_PATIENCE_MS;
    while (Date.now() < giveUpAt) {
      if (signal?.aborted) throw new Error('stopped before the delivered batches were removed from the outbox');
      const { db } = this.handle();
      db.pragma('busy_timeout = 0');
      try {
        this.ack(transmit, ids);
        return;
      } catch (cause) {
        if (!errorCode(cause)?.startsWith('SQLITE_BUSY')) throw cause;
      } finally {
        db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
      }
      await new Promise((resolve) => setTimeout(resolve, ACK_RETRY_MS));
    }
    this.ack(transmit, ids);
  }

  /** Outbox bytes of a transmit, from memory (read from the database once). */
  queuedBytesOf(transmit: string): number {
    let bytes = this.queuedBytes.get(transmit);
    if (bytes === undefined) {
      bytes = this.backlog(transmit).bytes;
      this.queuedBytes.set(transmit, bytes);
    }
    return bytes;
  }

  backlog(transmit: string): { batches: number; records: number; bytes: number } {
    return this.statements.backlog.get(transmit) as { batches: number; records: number; bytes: number };
  }

  /** When the oldest batch still queued for a transmit was committed (epoch ms), or undefined when none is. */
  oldestQueuedAt(transmit: string): number | undefined {
    return (this.statements.oldest.get(transmit) as { createdAt: number } | undefined)?.createdAt;
  }

  /** Records read and the newest record of every stream that ever read one (one row per stream). */
  streamTotals(): StreamTotals[] {
    return this.statements.streamTotals.all() as StreamTotals[];
  }

  /** Waiting and sent records per transmit and stream, from counts the outbox keeps (no scan of it). */
  outboxStreams(): OutboxStream[] {
    return this.statements.outboxStreams.all() as OutboxStream[];
  }

  /** Records a transmit delivered, in all (kept across restarts). */
  sentBy(transmit: string): number {
    return (this.statements.sentBy.get(transmit) as { sent: number }).sent;
  }

  /** Bytes a transmit of this type sent and its upload errors, in all (kept across restarts). */
  transmitTotals(transmit: string, type: string): { bytes: number; errors: number } {
    const kept = (this.statements.transmitTotals.get(transmit, type) as { bytes: number; errors: number } | undefined) ?? { bytes: 0, errors: 0 };
    const pending = this.pendingTotals.get(`${transmit}\0${type}`);
    return pending ? { bytes: kept.bytes + pending.bytes, errors: kept.errors + pending.errors } : kept;
  }

  /**
   * Adds a delivery's bytes (or a failure) to what the store keeps across restarts. It never waits
   * for the write lock (a parse thread holds it through its commit's sync): busy, the counts wait in
   * memory and go with the next delivery's, or with close(). Waiting there was a third of the main
   * thread's busy time in a 1M-row drop. Without a WAL sync of its own, as ack(): a kill -9 loses
   * nothing written (the OS has it), a power cut at most the last deliveries' counts.
   */
  addTransmitTotals(transmit: string, type: string, bytes: number, errors: number): void {
    const key = `${transmit}\0${type}`;
    const pending = this.pendingTotals.get(key);
    if (pending) {
      pending.bytes += bytes;
      pending.errors += errors;
    } else this.pendingTotals.set(key, { transmit, type, bytes, errors });
    this.writeTotals(0);
  }

  /** Writes the pending totals in one transaction; false (they stay pending) when the lock is taken. */
  private writeTotals(busyTimeoutMs: number): boolean {
    if (this.pendingTotals.size === 0) return true;
    const { db, statements } = this.handle();
    db.pragma(`busy_timeout = ${busyTimeoutMs}`);
    db.pragma('synchronous = NORMAL');
    try {
      db.transaction(() => {
        for (const t of this.pendingTotals.values()) statements.addTransmitTotals.run(t.transmit, t.type, t.bytes, t.errors);
      })();
      this.pendingTotals.clear();
      return true;
    } catch (cause) {
      if (errorCode(cause)?.startsWith('SQLITE_BUSY')) return false;
      throw cause;
    } finally {
      db.pragma('synchronous = FULL');
      db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    }
  }

  outboxBytes(): number {
    return (this.statements.totalBytes.get() as { bytes: number }).bytes;
  }

  close(): void {
    try {
      if (this.opened?.db.open) this.writeTotals(BUSY_TIMEOUT_MS);
    } catch {
      // A full disk at close: the counts of the last deliveries are lost, the records are not.
    }
    this.closed = true;
    if (this.opened?.db.open) this.opened.db.close();
    this.opened = undefined;
  }
}
