import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { ensurePrivateFile } from '../disk/private-file.js';

/**
 * Opens (creating it and its folder, private to the agent's user) a SQLite file kept beside the
 * agent's store — KPIs, flow history — so that its work never contends with the data path's
 * transactions. WAL with synchronous NORMAL: what these files hold is rebuilt or was delivered
 * anyway; a power cut may cost the last moments of it, never the agent's speed.
 */
export function openSideDatabase(file: string, schema: string, busyTimeoutMs: number): Database.Database {
  return openWalDatabase(file, { synchronous: 'NORMAL', busyTimeoutMs, prepare: (db) => db.exec(schema) });
}

/**
 * Opens an agent SQLite file (created with its folder, private to the agent's user) in WAL mode
 * with the given durability, and `prepare`s it (schema, migrations); closed again when that fails.
 * The agent's store (FULL: store/open-store.ts) and the side databases (NORMAL) open through here.
 */
export function openWalDatabase(file: string, options: { synchronous: 'FULL' | 'NORMAL'; busyTimeoutMs: number; prepare: (db: Database.Database) => void }): Database.Database {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  ensurePrivateFile(file);
  const db = new Database(file);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma(`synchronous = ${options.synchronous}`);
    db.pragma(`busy_timeout = ${options.busyTimeoutMs}`);
    options.prepare(db);
  } catch (cause) {
    db.close();
    throw cause;
  }
  return db;
}
