import type Database from 'better-sqlite3';

/** The tables of `state/agent.db` (AgentStore): file progress and its parts, stream state, the outbox. */
const SCHEMA = `
CREATE TABLE IF NOT EXISTS file_progress (
  receiver TEXT NOT NULL, asset TEXT NOT NULL, stream_type TEXT NOT NULL, path TEXT NOT NULL,
  size INTEGER NOT NULL, mtime_ms REAL NOT NULL, offset INTEGER NOT NULL,
  fingerprint TEXT NOT NULL, parser_state TEXT NOT NULL, updated_at INTEGER NOT NULL,
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
`;

/** Creates what is missing and brings a store made by an older version up to date. */
export function applySchema(db: Database.Database): void {
  db.exec(SCHEMA);
  // Stores made before outbox formats existed hold JSON batches.
  const columns = db.prepare('PRAGMA table_info(outbox)').all() as { name: string }[];
  if (!columns.some((c) => c.name === 'format')) db.exec("ALTER TABLE outbox ADD COLUMN format TEXT NOT NULL DEFAULT 'json'");
}
