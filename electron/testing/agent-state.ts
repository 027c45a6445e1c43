/**
 * The agent's own state, for tests that must show that nothing more arrives: instead of sleeping,
 * they wait until the agent has committed its reading of the files (its progress, read from
 * state/agent.db over a read-only connection) and its transmits have delivered everything (their
 * outbox backlog in GET /v1/status). From then on nothing more can arrive unless a file changes.
 */
import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { waitFor } from './file-plant.js';
import type { TestServer } from './test-host.js';

interface StreamKey {
  asset: string;
  stream_type: string;
}

/** The committed read progress of one file: bytes consumed and the file size it saw. */
export function fileProgress(dataDirectory: string, receiver: string, stream: StreamKey, identity: string): { offset: number; size: number } | undefined {
  const db = new Database(path.join(dataDirectory, 'state', 'agent.db'), { readonly: true, fileMustExist: true });
  try {
    return db.prepare('SELECT offset, size FROM file_progress WHERE receiver = ? AND asset = ? AND stream_type = ? AND path = ?').get(receiver, stream.asset, stream.stream_type, identity) as
      | { offset: number; size: number }
      | undefined;
  } finally {
    db.close();
  }
}

/** Whether every transmit's outbox is empty (everything committed was delivered). */
export async function outboxesEmpty(server: TestServer): Promise<boolean> {
  const transmits = (await server.call('GET', '/v1/status')).json.response.last_data_transmit as Record<string, { backlog_records: number }>;
  return Object.values(transmits).every((t) => t.backlog_records === 0);
}

export interface ReadFile {
  stream: StreamKey;
  /** The file on this machine (its size now is what the agent must have read). */
  file: string;
  /** How the receiver names it in its progress (default: the local path). */
  identity?: string;
  /** Bytes at the end the agent must not have consumed yet (a half-written last line). */
  unread?: number;
}

/**
 * Waits until the agent has read each file up to its end as it is now (or up to `unread` bytes
 * before it) and every outbox is empty.
 */
export async function waitUntilRead(server: TestServer, receiver: string, files: readonly ReadFile[], ms = 20_000): Promise<void> {
  await waitFor(
    async () => {
      for (const entry of files) {
        const size = fs.statSync(entry.file).size;
        const progress = fileProgress(server.dataDirectory, receiver, entry.stream, entry.identity ?? entry.file);
        if (!progress || progress.size !== size || progress.offset !== size - (entry.unread ?? 0)) return false;
      }
      return outboxesEmpty(server);
    },
    ms,
    `the agent to have read ${files.map((f) => path.basename(f.file)).join(', ')} and delivered it`,
  );
}
