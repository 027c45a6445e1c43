import { BSON } from 'bson';
import zlib from 'node:zlib';
import type { AgentRecord } from '../../../../shared/records/record.js';
import { fernetDecrypt, fernetEncrypt, fernetKeyFromApiKey } from './fernet.js';

/** The RDP2 upload: multipart part `sslog`, file name `p.tmp`. */
export const PART_NAME = 'sslog';
export const PART_FILE_NAME = 'p.tmp';
/**
 * gzip of upload bodies (decision 0074): level 2 with zlib's bigger hash table (memLevel 9). On
 * record BSON that costs 20 % less CPU than level 3 for 3 % more bytes, and ~3x less than the
 * default 6 (docs/performance.md).
 */
export const GZIP_OPTIONS: Readonly<{ level: number; memLevel: number }> = { level: 2, memLevel: 9 };

/** One record as a BSON document: times become BSON dates (millisecond precision). */
export function toDocument(record: AgentRecord): Record<string, unknown> {
  return {
    asset: record.asset,
    stream_type: record.stream_type,
    timestamp: new Date(record.timestamp),
    capturetime: new Date(record.capturetime),
    record_id: record.record_id,
    fieldvalues: record.fieldvalues,
  };
}

/** Sorted by asset, then timestamp (then record_id, so equal times keep a stable order). */
export function sortForUpload(records: readonly AgentRecord[]): AgentRecord[] {
  return [...records].sort((a, b) =>
    a.asset < b.asset ? -1 : a.asset > b.asset ? 1 : a.timestamp < b.timestamp ? -1 : a.timestamp > b.timestamp ? 1 : a.record_id < b.record_id ? -1 : a.record_id > b.record_id ? 1 : 0,
  );
}

/** gzip(concatenated BSON), Fernet-wrapped with the key derived from API_key unless encryption is off. */
export function encodeUpload(records: readonly AgentRecord[], options: { apiKey: string; useEncryption: boolean }): Buffer {
  const documents = sortForUpload(records).map((r) => BSON.serialize(toDocument(r)));
  const gzipped = zlib.gzipSync(Buffer.concat(documents), GZIP_OPTIONS);
  return options.useEncryption ? fernetEncrypt(fernetKeyFromApiKey(options.apiKey), gzipped) : gzipped;
}

/** The inverse of encodeUpload (the ingest server's side). */
export function decodeUpload(part: Buffer, options: { apiKey: string; encrypted: boolean }): Record<string, unknown>[] {
  const gzipped = options.encrypted ? fernetDecrypt(fernetKeyFromApiKey(options.apiKey), part) : part;
  const bytes = zlib.gunzipSync(gzipped);
  const documents: Record<string, unknown>[] = [];
  let offset = 0;
  while (offset < bytes.length) {
    const size = bytes.readInt32LE(offset);
    documents.push(BSON.deserialize(bytes.subarray(offset, offset + size)));
    offset += size;
  }
  return documents;
}

/**
 * Verifies an upload (Fernet signature, gzip) and counts its documents by their length prefixes,
 * decoding only the first: what a benchmark's ingest server needs without spending its CPU on
 * decoding every record.
 */
export function countUpload(part: Buffer, options: { apiKey: string; encrypted: boolean }): number {
  const gzipped = options.encrypted ? fernetDecrypt(fernetKeyFromApiKey(options.apiKey), part) : part;
  // One output buffer for a usual request (~1 MiB of documents) instead of 16 KiB pieces and a copy.
  const bytes = zlib.gunzipSync(gzipped, { chunkSize: 1024 * 1024 });
  let count = 0;
  let offset = 0;
  while (offset < bytes.length) {
    const size = bytes.readInt32LE(offset);
    if (size < 5 || offset + size > bytes.length) throw new Error(`Corrupt upload: a document of ${size} bytes at ${offset}`);
    if (count === 0) BSON.deserialize(bytes.subarray(offset, offset + size));
    offset += size;
    count += 1;
  }
  return count;
}
