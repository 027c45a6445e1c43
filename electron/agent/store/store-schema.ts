import type Database from 'better-sqlite3';

/** The tables of `state/agent.db` (AgentStore): file progress and its parts, stream state, the outbox. */
const SCHEMA = `
CREATE TABLE IF NOT EXISTS file_progress (
  receiver TEXT NOT NULL, asset TEXT NOT NULL, stream_type TEXT NOT NULL, path TEXT NOT NULL,
  size INTEGER NOT NULL, mtime_ms REAL NOT NULL, offset INTEGER NOT NULL,
  fingerprint TEXT NOT NULL, parser_state TEXT NOT NULL, updated_at INTEGER NOT NULL, tail TEXT NOT NULL DEFAULT '',
  PRIMARY KEY (receiver, asset, stream_type, path)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS file_parts (
  receiver TEXT NOT NULL, asset TEXT NOT NULL, stream_type TEXT NOT NULL, path TEXT NOT NULL, part_start INTEGER NOT NULL,
  part_end INTEGER NOT NULL, offset INTEGER NOT NULL, parser_state TEXT NOT NULL, updated_at INTEGER NOT NULL,
  PRIMARY KEY (receiver, asset, stream_type, path, part_start)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS stream_state (
  receiver TEXT NOT NULL, asset TEXT NOT NULL, stream_type TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL,
  PRIMARY KEY (receiver, asset, stream_type, key)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS outbox (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  transmit TEXT NOT NULL, asset TEXT NOT NULL, stream_type TEXT NOT NULL,
  record_count INTEGER NOT NULL, bytes INTEGER NOT NULL, payload BLOB NOT NULL, created_at INTEGER NOT NULL,
  format TEXT NOT NULL DEFAULT 'json'
);
CREATE INDEX IF NOT EXISTS outbox_by_transmit ON outbox (transmit, id);
CREATE INDEX IF NOT EXISTS outbox_bytes_by_transmit ON outbox (transmit, bytes);
CREATE TABLE IF NOT EXISTS transmit_totals (
  transmit TEXT NOT NULL PRIMARY KEY, transmit_type TEXT NOT NULL, bytes_sent INTEGER NOT NULL, upload_errors INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS stream_totals (
  receiver TEXT NOT NULL, asset TEXT NOT NULL, stream_type TEXT NOT NULL, records_read INTEGER NOT NULL,
  last_record_at INTEGER, last_record_timestamp TEXT,
  PRIMARY KEY (receiver, asset, stream_type)
) WITHOUT ROWID;
`;

/**
 * Per transmit and stream: batches and records waiting in the outbox and records sent (deleted after
 * delivery), kept by triggers in the transaction that queues or acknowledges a batch, whichever thread
 * writes it: GET /v1/streams reads one row per stream instead of counting the outbox. The index finds
 * the oldest waiting batch of a stream without reading payloads.
 */
const OUTBOX_STREAMS = `
CREATE TABLE outbox_streams (
  transmit TEXT NOT NULL, asset TEXT NOT NULL, stream_type TEXT NOT NULL,
  batches INTEGER NOT NULL, waiting INTEGER NOT NULL, sent INTEGER NOT NULL,
  PRIMARY KEY (transmit, asset, stream_type)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS outbox_by_stream ON outbox (transmit, asset, stream_type, id, created_at);
CREATE TRIGGER outbox_streams_queued AFTER INSERT ON outbox BEGIN
  INSERT OR IGNORE INTO outbox_streams VALUES (NEW.transmit, NEW.asset, NEW.stream_type, 0, 0, 0);
  UPDATE outbox_streams SET batches = batches + 1, waiting = waiting + NEW.record_count
    WHERE transmit = NEW.transmit AND asset = NEW.asset AND stream_type = NEW.stream_type;
END;
CREATE TRIGGER outbox_streams_sent AFTER DELETE ON outbox BEGIN
  UPDATE outbox_streams SET batches = batches - 1, waiting = waiting - OLD.record_count, sent = sent + OLD.record_count
    WHERE transmit = OLD.transmit AND asset = OLD.asset AND stream_type = OLD.stream_type;
END;
INSERT INTO outbox_streams SELECT transmit, asset, stream_type, COUNT(*), SUM(record_count), 0 FROM outbox GROUP BY transmit, asset, stream_type;
`;

/** The byte count of a fingerprint (`length:hash`), as SQL: what adoption of a renamed file looks up. */
export const FINGERPRINT_LENGTH_SQL = "CAST(substr(fingerprint, 1, instr(fingerprint, ':') - 1) AS INTEGER)";

/**
 * A renamed file is found by its first bytes in O(log n), not by a look at every file read so far
 * (50,000 files in one folder cost 182 ms a file at 24,000): by stream, fingerprint length, fingerprint.
 */
const FINGERPRINT_INDEX = `CREATE INDEX IF NOT EXISTS file_progress_by_fingerprint ON file_progress (receiver, asset, stream_type, ${FINGERPRINT_LENGTH_SQL}, fingerprint)`;

/** Creates what is missing and brings a store made by an older version up to date. */
export function applySchema(db: Database.Database): void {
  db.exec(SCHEMA);
  // Stores made before outbox formats existed hold JSON batches.
  const columns = db.prepare('PRAGMA table_info(outbox)').all() as { name: string }[];
  if (!columns.some((c) => c.name === 'format')) db.exec("ALTER TABLE outbox ADD COLUMN format TEXT NOT NULL DEFAULT 'json'");
  // The tail of what was read (start:length:hash, file-reader.ts): a same-size replacement with the same first bytes is seen.
  const fileColumns = db.prepare('PRAGMA table_info(file_progress)').all() as { name: string }[];
  if (!fileColumns.some((c) => c.name === 'tail')) db.exec("ALTER TABLE file_progress ADD COLUMN tail TEXT NOT NULL DEFAULT ''");
  db.exec(FINGERPRINT_INDEX);
  // Once per store, in one write transaction: a store made before these counts gets them from the
  // batches it holds, and no other connection queues or acknowledges one in between.
  db.transaction(() => {
    if (!db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'outbox_streams'").get()) db.exec(OUTBOX_STREAMS);
  }).immediate();
}
