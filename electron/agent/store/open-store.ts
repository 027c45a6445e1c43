/**
 * The agent database's SQL: it opened with its pragmas and schema, its prepared statements and the
 * commit transaction that queues records with their source's progress. AgentStore (agent-store.ts)
 * owns the connection's life, its health reporting and the outbox accounting.
 */
import type { CommitProgress, StreamKey } from '../components/contract.js';
import { openWalDatabase } from './side-database.js';
import { FINGERPRINT_LENGTH_SQL, applySchema } from './store-schema.js';

/** How long a write on any thread waits for another thread's write (SQLite's busy timeout). */
export const BUSY_TIMEOUT_MS = 5000;

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

/**
 * What a batch read from its source (before transforms), counted in `stream_totals` by the same
 * transaction: records read and the newest record survive a restart, as the progress does.
 */
export interface StreamRead {
  records: number;
  /** The own time stamp of the batch's last record. */
  lastTimestamp?: string;
}

/** The outbox rows and source progress of one stream's batch (AgentStore.commitAll). */
export interface StoreCommit {
  receiver: string;
  stream: StreamKey;
  entries: readonly OutboxEntry[];
  progress: CommitProgress;
  read?: StreamRead;
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
export type OpenStore = ReturnType<typeof openStore>;

export function openStore(file: string) {
  // FULL: a committed transaction survives a power cut, not only a process crash.
  const db = openWalDatabase(file, { synchronous: 'FULL', busyTimeoutMs: BUSY_TIMEOUT_MS, prepare: applySchema });
  const statements = {
    getFile: db.prepare('SELECT path, size, mtime_ms AS mtimeMs, offset, fingerprint, parser_state AS parserState, tail FROM file_progress WHERE receiver = ? AND asset = ? AND stream_type = ? AND path = ?'),
    // The next fingerprint length above the given one (at most the last argument), from the index alone.
    nextFingerprintLength: db.prepare(`SELECT ${FINGERPRINT_LENGTH_SQL} AS length FROM file_progress WHERE receiver = ? AND asset = ? AND stream_type = ?
      AND ${FINGERPRINT_LENGTH_SQL} > ? AND ${FINGERPRINT_LENGTH_SQL} <= ? ORDER BY 1 LIMIT 1`),
    // Files whose identity starts with a head fingerprint (`length:hash`, or `length:hash~version` after a same-head rewrite).
    filesByHead: db.prepare(`SELECT path, size, mtime_ms AS mtimeMs, offset, fingerprint, parser_state AS parserState, tail FROM file_progress
      WHERE receiver = ? AND asset = ? AND stream_type = ? AND ${FINGERPRINT_LENGTH_SQL} = ? AND fingerprint >= ? AND fingerprint < ? LIMIT 50`),
    // A page of a receiver's file progress in key order (pruning of vanished files walks it page by page).
    progressPage: db.prepare(`SELECT asset, stream_type, path FROM file_progress WHERE receiver = ? AND (asset, stream_type, path) > (?, ?, ?)
      ORDER BY asset, stream_type, path LIMIT ?`),
    filesOf: db.prepare('SELECT path, size, mtime_ms AS mtimeMs, offset, fingerprint, parser_state AS parserState FROM file_progress WHERE receiver = ? AND asset = ? AND stream_type = ?'),
    // A commit without a tail of its own (nothing consumed, a merge of parts) keeps the one the same file had.
    putFile: db.prepare(`INSERT INTO file_progress (receiver, asset, stream_type, path, size, mtime_ms, offset, fingerprint, parser_state, updated_at, tail)
      VALUES (@receiver, @asset, @stream_type, @path, @size, @mtimeMs, @offset, @fingerprint, @parserState, @now, @tail)
      ON CONFLICT (receiver, asset, stream_type, path) DO UPDATE SET size = excluded.size, mtime_ms = excluded.mtime_ms,
      offset = excluded.offset, fingerprint = excluded.fingerprint, parser_state = excluded.parser_state, updated_at = excluded.updated_at,
      tail = CASE WHEN excluded.tail = '' AND file_progress.fingerprint = excluded.fingerprint THEN file_progress.tail ELSE excluded.tail END`),
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
    countRead: db.prepare(`INSERT INTO stream_totals (receiver, asset, stream_type, records_read, last_record_at, last_record_timestamp) VALUES (?, ?, ?, ?, ?, ?)
      ON CONFLICT (receiver, asset, stream_type) DO UPDATE SET records_read = records_read + excluded.records_read, last_record_at = excluded.last_record_at,
      last_record_timestamp = COALESCE(excluded.last_record_timestamp, stream_totals.last_record_timestamp)`),
    streamTotals: db.prepare(`SELECT receiver, asset, stream_type, records_read AS recordsRead, last_record_at AS lastRecordAt,
      last_record_timestamp AS lastRecordTimestamp FROM stream_totals`),
    // One row per transmit and stream; the oldest waiting batch from the outbox_by_stream index (no payload read).
    outboxStreams: db.prepare(`SELECT w.transmit, w.asset, w.stream_type, w.waiting, w.sent, CASE WHEN w.batches > 0 THEN
      (SELECT o.created_at FROM outbox o WHERE o.transmit = w.transmit AND o.asset = w.asset AND o.stream_type = w.stream_type ORDER BY o.id LIMIT 1)
      END AS oldestAt FROM outbox_streams w`),
    sentBy: db.prepare('SELECT COALESCE(SUM(sent), 0) AS sent FROM outbox_streams WHERE transmit = ?'),
    // Bytes sent and upload errors per transmit (issue 56): kept across restarts as records sent are; a new type starts at zero.
    transmitTotals: db.prepare('SELECT bytes_sent AS bytes, upload_errors AS errors FROM transmit_totals WHERE transmit = ? AND transmit_type = ?'),
    addTransmitTotals: db.prepare(`INSERT INTO transmit_totals (transmit, transmit_type, bytes_sent, upload_errors) VALUES (?, ?, ?, ?)
      ON CONFLICT (transmit) DO UPDATE SET bytes_sent = CASE WHEN transmit_type = excluded.transmit_type THEN bytes_sent ELSE 0 END + excluded.bytes_sent,
      upload_errors = CASE WHEN transmit_type = excluded.transmit_type THEN upload_errors ELSE 0 END + excluded.upload_errors, transmit_type = excluded.transmit_type`),
  };
  const commitOne = (receiver: string, stream: StreamKey, entries: readonly OutboxEntry[], progress: CommitProgress, limits?: ReadonlyMap<string, number>, read?: StreamRead) => {
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
    if (progress.file) statements.putFile.run({ receiver, asset: stream.asset, stream_type: stream.stream_type, tail: '', ...progress.file, now });
    if (progress.part) {
      const { path: filePath, start, from, offset, parserState } = progress.part;
      // Only a part still at the chunk's start takes its records: one gone (a restream, a rewrite)
      // or moved on (read by someone else) rolls the whole transaction back.
      const changed = statements.advancePart.run(offset, parserState, now, receiver, stream.asset, stream.stream_type, filePath, start, from).changes;
      if (changed !== 1) throw new Error(`The part of ${filePath} from byte ${start} is no longer read (progress changed meanwhile): nothing of this chunk was stored.`);
    }
    for (const [key, value] of Object.entries(progress.state ?? {})) statements.putState.run(receiver, stream.asset, stream.stream_type, key, value);
    if (read && read.records > 0) statements.countRead.run(receiver, stream.asset, stream.stream_type, read.records, now, read.lastTimestamp ?? null);
  };
  const commit = db.transaction(commitOne);
  // Batches of several streams read at one moment (an OPC UA publish): one transaction, one WAL sync.
  const commitAll = db.transaction((commits: readonly StoreCommit[], limits?: ReadonlyMap<string, number>) => {
    for (const one of commits) commitOne(one.receiver, one.stream, one.entries, one.progress, limits, one.read);
  });
  const ack = db.transaction((transmit: string, ids: readonly number[]) => {
    for (const id of ids) statements.ack.run(id, transmit);
  });
  return { db, statements, commit, commitAll, ack };
}

