import fs from 'node:fs';

/**
 * Creates `file` (empty) when missing, for the agent's user only (0600), and tightens a file an
 * older version created 0644. SQLite gives its -wal and -shm files the mode of the database file,
 * so a database made this way stays private. Tightening is best effort: a file owned by another
 * user is left as it is.
 */
export function ensurePrivateFile(file: string): void {
  fs.closeSync(fs.openSync(file, 'a', 0o600));
  if (process.platform === 'win32') return;
  try {
    fs.chmodSync(file, 0o600);
  } catch {
    // Owned by another user: left as it is.
  }
}
