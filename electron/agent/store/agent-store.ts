import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import type { CommitProgress, FilePart, FileProgress, StreamKey } from '../components/contract.js';
import { type StorageHealth, describeWriteFailure, errorCode, isDiskFull } from '../storage/storage-health.js';
import { ensurePrivateFile } from '../storage/private-file.js';
import { applySchema } from './store-schema.js';

/** The StorageHealth area of the agent's database. */
export const STORE_AREA = 'store';

/** A stored outbox batch: its payload is read by the codec of its format (the transmit's). */
export interface OutboxBatch {
  id: number;
  transmit: string;
  asset: string;
  stream_type: string;
  /** Records in the payload. */
  records: number;
  bytes: number;
  format: string;
  payload: Buffer;
}

/**
 * Records to queue for one transmit, stored in the same transaction as the source progress, already
 * encoded by the transmit's outbox codec (components/contract.ts).
 */
export interface OutboxEntry {
  transmit: string;
  asset: string;
  stream_type: string;
  /** The codec's format; the store keeps payloads without knowing their form. */
  format: string;
  /** Number of records in the payload. */
  records: number;
  payload: Buffer;
}

/** A commit would push a transmit's outbox past its limit: nothing was committed. */
export class OutboxFullError extends Error {
  constructor(
    readonly transmit: string,
    readonly queuedBytes: number,
    readonly bytes: number,
  ) {
    super(`The outbox of ${transmit} holds ${queuedBytes} bytes; ${bytes} more would pass its limit.`);
  }
}

/** An open database with its prepared statements. */
type OpenStore = ReturnType<typeof openStore>;

function openStore(file: string) {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  ensurePrivateFile(file);
  const db = new Database(file);
  try {
    db.pragma('journal_mode = WAL');
    // FULL: a committed transaction survives a power cut, not only a process crash.
    db.pragma('synchronous = FULL');
    db.pragma('busy_timeout = 5000');
    applySchema(db);
  } catch (cause) {
    db.close();
    throw cause;
  }
  const statements = {
    getFile: db.prepare('SELECT path, size, mtime_ms AS mtimeMs, offset, fingerprint, parser_state AS parserState FROM file_progress WHERE receiver = ? AND asset = ? AND stream_type = ? AND path = ?'),
    filesOf: db.prepare('SELECT path, size, mtime_ms AS mtimeMs, offset, fingerprint, parser_state AS parserState FROM file_progress WHERE receiver = ? AND asset = ? AND stream_type = ?'),
    putFile: db.prepare(`INSERT INTO file_progress (receiver, asset, stream_type, path, size, mtime_ms, offset, fingerprint, parser_state, updated_at)
      VALUES (@receiver, @asset, @stream_type, @path, @size, @mtimeMs, @offset, @fingerprint, @parserState, @now)
      ON CONFLICT (receiver, asset, stream_type, path) DO UPDATE SET size = excluded.size, mtime_ms = excluded.mtime_ms,
      offset = excluded.offset, fingerprint = excluded.fingerprint, parser_state = excluded.parser_state, updated_at = excluded.updated_at`),
    deleteFile: db.prepare('DELETE FROM file_progress WHERE receiver = ? AND asset = ? AND stream_type = ? AND path = ?'),
    purgeFiles: db.prepare('DELETE FROM file_progress WHERE receiver = ? AND asset = ? AND stream_type = ?'),
    partsOf: db.prepare('SELECT part_start AS start, part_end AS end, offset, parser_state AS parserState FROM file_parts WHERE receiver = ? AND asset = ? AND stream_type = ? AND path = ? ORDER BY part_start'),
    putPart: db.prepare('INSERT INTO file_parts (receiver, asset, stream_type, path, part_start, part_end, offset, parser_state, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)'),
    advancePart: db.prepare('UPDATE file_parts SET offset = ?, parser_state = ?, updated_at = ? WHERE receiver = ? AND asset = ? AND stream_type = ? AND path = ? AND part_start = ? AND offset = ?'),
    deleteParts: db.prepare('DELETE FROM file_parts WHERE receiver = ? AND asset = ? AND stream_type = ? AND path = ?'),
    purgeParts: db.prepare('DELETE FROM file_parts WHERE receiver = ? AND asset = ? AND stream_type = ?'),
    moveFile: db.prepare('UPDATE file_progress SET path = ? WHERE receiver = ? AND asset = ? AND stream_type = ? AND path = ?'),
    moveParts: db.prepare('UPDATE file_parts SET path = ? WHERE receiver = ? AND asset = ? AND stream_type = ? AND path = ?'),
    purgeState: db.prepare('DELETE FROM stream_state WHERE receiver = ? AND asset = ? AND stream_type = ?'),
    getState: db.prepare('SELECT value FROM stream_state WHERE receiver = ? AND asset = ? AND stream_type = ? AND key = ?'),
    putState: db.prepare('INSERT INTO stream_state (receiver, asset, stream_type, key, value) VALUES (?, ?, ?, ?, ?) ON CONFLICT (receiver, asset, stream_type, key) DO UPDATE SET value = excluded.value'),
    enqueue: db.prepare('INSERT INTO outbox (transmit, asset, stream_type, record_count, bytes, payload, created_at, format) VALUES (?, ?, ?, ?, ?, ?, ?, ?)'),
    peek: db.prepare('SELECT id, transmit, asset, stream_type, record_count AS records, bytes, payload, format FROM outbox WHERE transmit = ? ORDER BY id LIMIT ?'),
    peekMeta: db.prepare('SELECT id, record_count AS records, bytes FROM outbox WHERE transmit = ? ORDER BY id LIMIT ?'),
    payload: db.prepare('SELECT payload, format FROM outbox WHERE id = ? AND transmit = ?'),
    ack: db.prepare('DELETE FROM outbox WHERE id = ? AND transmit = ?'),
    backlog: db.prepare('SELECT COUNT(*) AS batches, COALESCE(SUM(record_count), 0) AS records, COALESCE(SUM(bytes), 0) AS bytes FROM outbox WHERE transmit = ?'),
    totalBytes: db.prepare('SELECT COALESCE(SUM(bytes), 0) AS bytes FROM outbox'),
    backlogBytes: db.prepare('SELECT COALESCE(SUM(bytes), 0) AS bytes FROM outbox WHERE transmit = ?'),
    oldest: db.prepare('SELECT created_at AS createdAt FROM outbox WHERE transmit = ? ORDER BY id LIMIT 1'),
  };
  const commit = db.transaction((receiver: string, stream: StreamKey, entries: readonly OutboxEntry[], progress: CommitProgress, limits?: ReadonlyMap<string, number>) => {
    const now = Date.now();
    if (limits) {
      // Inside the (immediate) write transaction: other connections, e.g. another receiver's
      // worker, cannot commit in between, so the limit holds exactly.
      const adding = new Map<string, number>();
      for (const entry of entries) adding.set(entry.transmit, (adding.get(entry.transmit) ?? 0) + entry.payload.length);
      for (const [transmit, bytes] of adding) {
        const limit = limits.get(transmit);
        if (limit === undefined) continue;
        const queued = (statements.backlogBytes.get(transmit) as { bytes: number }).bytes;
        // An empty outbox takes any batch, however big: reading can always go on.
        if (queued > 0 && queued + bytes > limit) throw new OutboxFullError(transmit, queued, bytes);
      }
    }
    for (const entry of entries) {
      if (entry.records === 0) continue;
      statements.enqueue.run(entry.transmit, entry.asset, entry.stream_type, entry.records, entry.payload.length, entry.payload, now, entry.format);
    }
    if (progress.file) statements.putFile.run({ receiver, asset: stream.asset, stream_type: stream.stream_type, ...progress.file, now });
    if (progress.part) {
      const { path: filePath, start, from, offset, parserState } = progress.part;
      // Only a part still at the chunk's start takes its records: one gone (a restream, a rewrite)
      // or moved on (read by someone else) rolls the whole transaction back.
      const changed = statements.advancePart.run(offset, parserState, now, receiver, stream.asset, stream.stream_type, filePath, start, from).changes;
      if (changed !== 1) throw new Error(`The part of ${filePath} from byte ${start} is no longer read (progress changed meanwhile): nothing of this chunk was stored.`);
    }
    for (const [key, value] of Object.entries(progress.state ?? {})) statements.putState.run(receiver, stream.asset, stream.stream_type, key, value);
  });
  return { db, statements, commit };
}

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
  commit(receiver: string, stream: StreamKey, entries: readonly OutboxEntry[], progress: CommitProgress, limits?: ReadonlyMap<string, number>): void {
    this.write(() => this.handle().commit.immediate(receiver, stream, entries, progress, limits));
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
        statements.putFile.run({ receiver, asset: stream.asset, stream_type: stream.stream_type, ...file, now });
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
        statements.putFile.run({ receiver, asset: stream.asset, stream_type: stream.stream_type, ...progress, now: Date.now() });
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
    const db = this.db;
    db.pragma('synchronous = NORMAL');
    try {
      this.write(() =>
        db.transaction(() => {
          for (const id of ids) this.statements.ack.run(id, transmit);
        })(),
      );
    } finally {
      db.pragma('synchronous = FULL');
    }
    this.queuedBytes.set(transmit, this.backlog(transmit).bytes);
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

  outboxBytes(): number {
    return (this.statements.totalBytes.get() as { bytes: number }).bytes;
  }

  close(): void {
    this.closed = true;
    if (this.opened?.db.open) this.opened.db.close();
    this.opened = undefined;
  }
}
