import crypto from 'node:crypto';
import type { StreamKey } from '../../components/contract.js';

/**
 * Record ids of file rows: 20 hex digits of SHA-256 over asset, stream type, path and the file's
 * fingerprint (one hash per file), then the line number as 12 hex digits. Stable across re-reads
 * of the same bytes (a replay after a crash, a restream), distinct for every line of every file,
 * and 32 characters like the hash ids of other sources. Ids of one file sort by line.
 */
export function recordIdPrefix(stream: StreamKey, filePath: string, fingerprint: string): string {
  return crypto.createHash('sha256').update(`${stream.asset}\0${stream.stream_type}\0${filePath}\0${fingerprint}`).digest('hex').slice(0, 20);
}

export function recordIdOf(prefix: string, line: number): string {
  return prefix + line.toString(16).padStart(12, '0');
}
