import Database from 'better-sqlite3';
import { openSideDatabase } from '../store/side-database.js';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS kpi_library (
  name TEXT PRIMARY KEY, kind TEXT NOT NULL, definition TEXT NOT NULL, last_modified TEXT NOT NULL
) WITHOUT ROWID;
-- The per-record history of earlier versions (a cache: evaluation starts over with new data).
DROP TABLE IF EXISTS record_history;
CREATE TABLE IF NOT EXISTS history_batches (
  id INTEGER PRIMARY KEY, signature TEXT NOT NULL UNIQUE, asset TEXT NOT NULL, stream_type TEXT NOT NULL,
  ts_min INTEGER NOT NULL, ts_max INTEGER NOT NULL, received INTEGER NOT NULL, count INTEGER NOT NULL,
  format TEXT NOT NULL, records BLOB NOT NULL
);
CREATE INDEX IF NOT EXISTS history_batches_by_asset_time ON history_batches (asset, ts_min);
CREATE INDEX IF NOT EXISTS history_batches_by_received ON history_batches (received);
`;

/**
 * The KPI database, `<data-dir>/state/kpi.db` (SQLite, WAL), kept apart from the agent's store so
 * that KPI work never contends with the data path's transactions. Holds the library and the recent
 * records that evaluation reads.
 */
export function openKpiDatabase(file: string): Database.Database {
  // NORMAL: the history is a cache of data that was delivered anyway; library saves switch to FULL.
  const db = openSideDatabase(file, SCHEMA, 5000);
  return db;
}
