import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { ensurePrivateFile } from './private-file.js';

/**
 * Opens (creating it and its folder, private to the agent's user) a SQLite file kept beside the
 * agent's store — KPIs, flow history — so that its work never contends with the data path's
 * transactions. WAL with synchronous NORMAL: what these files hold is rebuilt or was delivered
 * anyway; a power cut may cost the last moments of it, never the agent's speed.
 */
export function openSideDatabase(file: string, schema: string, busyTimeoutMs: number): Database.Database {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  ensurePrivateFile(file);
  const db = new Database(file);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma(`busy_timeout = ${busyTimeoutMs}`);
    db.exec(schema);
  } catch (cause) {
    db.close();
    throw cause;
  }
  return db;
}
