import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS kpi_library (
  name TEXT PRIMARY KEY, kind TEXT NOT NULL, definition TEXT NOT NULL, last_modified TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS record_history (
  record_id TEXT PRIMARY KEY, asset TEXT NOT NULL, stream_type TEXT NOT NULL,
  ts INTEGER NOT NULL, received INTEGER NOT NULL, fields TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS record_history_by_asset_time ON record_history (asset, ts);
CREATE INDEX IF NOT EXISTS record_history_by_received ON record_history (received);
`;

/**
 * The KPI database, `<data-dir>/state/kpi.db` (SQLite, WAL), kept apart from the agent's store so
 * that KPI work never contends with the data path's transactions. Holds the library and the recent
 * records that evaluation reads.
 */
export function openKpiDatabase(file: string): Database.Database {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  // NORMAL: the history is a cache of data that was delivered anyway; library saves switch to FULL.
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  db.exec(SCHEMA);
  return db;
}
