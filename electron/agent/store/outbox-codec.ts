/**
 * How a transmit's outbox batches are stored. `json` keeps records exactly (micro-second times) for
 * transmits that write them out as they are (csv). `upload` stores each batch as the body of one
 * RDP2 upload before encryption: gzip of the record documents sorted as the wire wants them. Records
 * are then encoded and compressed once, when they are committed (usually in a receiver's worker
 * thread), the on-disk buffer is ~10x smaller than BSON or JSON, and an upload only encrypts.
 */
import { BSON } from 'bson';
import zlib from 'node:zlib';
import { type AgentRecord, isoMicros } from '../../../shared/records/record.js';
import { GZIP_LEVEL, sortForUpload, toDocument } from '../transmits/remotedatapost/wire.js';

export type OutboxFormat = 'json' | 'upload';

/**
 * The payloads of one committed batch: one for json; for upload, as many as needed so that none
 * holds more than `maxRecords` (each payload is one request), split evenly.
 */
export interface EncodedBatch {
  payload: Buffer;
  records: number;
  /** First and last record in stored order (for upload: the earliest and latest of one asset). */
  first: AgentRecord;
  last: AgentRecord;
}

export function encodeBatches(format: OutboxFormat, records: readonly AgentRecord[], maxRecords = Infinity): EncodedBatch[] {
  if (records.length === 0) return [];
  if (format === 'json') return [{ payload: Buffer.from(JSON.stringify(records)), records: records.length, first: records[0]!, last: records[records.length - 1]! }];
  const sorted = sortForUpload(records);
  const parts = Math.max(1, Math.ceil(sorted.length / Math.max(1, maxRecords)));
  const out: EncodedBatch[] = [];
  let start = 0;
  for (let part = 0; part < parts; part += 1) {
    const size = Math.floor(sorted.length / parts) + (part < sorted.length % parts ? 1 : 0);
    const slice = sorted.slice(start, start + size);
    start += size;
    out.push({ payload: gzipDocuments(slice.map((record) => BSON.serialize(toDocument(record)))), records: slice.length, first: slice[0]!, last: slice[slice.length - 1]! });
  }
  return out;
}

/** gzip of concatenated documents: the RDP2 upload body before encryption. */
export function gzipDocuments(documents: readonly Uint8Array[]): Buffer {
  return zlib.gzipSync(Buffer.concat(documents), { level: GZIP_LEVEL });
}

/** The BSON documents of a stored upload batch, in order. */
export function documentsOf(payload: Buffer): Buffer[] {
  const bytes = zlib.gunzipSync(payload);
  return documentBounds(bytes).map(({ start, end }) => bytes.subarray(start, end));
}

/** Start and end of each BSON document in a concatenation (by their int32 length prefixes). */
export function documentBounds(bytes: Uint8Array): { start: number; end: number }[] {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const bounds: { start: number; end: number }[] = [];
  let offset = 0;
  while (offset + 4 <= view.length) {
    const size = view.readInt32LE(offset);
    if (size < 5 || offset + size > view.length) throw new Error(`Corrupt outbox batch: a document of ${size} bytes at ${offset} of ${view.length}`);
    bounds.push({ start: offset, end: offset + size });
    offset += size;
  }
  if (offset !== view.length) throw new Error(`Corrupt outbox batch: ${view.length - offset} trailing bytes`);
  return bounds;
}

/** The records of a stored batch (upload times come back with millisecond precision). */
export function decodeBatch(format: OutboxFormat, payload: Buffer): AgentRecord[] {
  if (format === 'json') return JSON.parse(payload.toString('utf8')) as AgentRecord[];
  return documentsOf(payload).map((document) => {
    const doc = BSON.deserialize(document);
    return {
      asset: doc.asset as string,
      stream_type: doc.stream_type as string,
      timestamp: isoMicros(BigInt((doc.timestamp as Date).getTime()) * 1000n),
      capturetime: isoMicros(BigInt((doc.capturetime as Date).getTime()) * 1000n),
      record_id: doc.record_id as string,
      fieldvalues: doc.fieldvalues as AgentRecord['fieldvalues'],
    };
  });
}

/** What the wire sorts upload documents by: asset, then timestamp (milliseconds on the wire). */
export interface DocumentKey {
  asset: string;
  timestampMs: number;
}

/**
 * Reads the sort key of one upload document without decoding all of it: walks the top-level
 * elements until asset and timestamp are seen (toDocument writes them first).
 */
export function documentKey(bytes: Buffer, start: number): DocumentKey {
  const end = start + bytes.readInt32LE(start) - 1;
  let offset = start + 4;
  const key: DocumentKey = { asset: '', timestampMs: 0 };
  let found = 0;
  while (offset < end && found < 2) {
    const type = bytes[offset]!;
    const nameEnd = bytes.indexOf(0, offset + 1);
    const name = bytes.toString('latin1', offset + 1, nameEnd);
    offset = nameEnd + 1;
    if (type === 0x02) {
      const length = bytes.readInt32LE(offset);
      if (name === 'asset') {
        key.asset = bytes.toString('utf8', offset + 4, offset + 4 + length - 1);
        found += 1;
      }
      offset += 4 + length;
    } else if (type === 0x09) {
      if (name === 'timestamp') {
        key.timestampMs = Number(bytes.readBigInt64LE(offset));
        found += 1;
      }
      offset += 8;
    } else break; // fieldvalues (an embedded document) comes after the key fields
  }
  return key;
}

/** Orders documents of several batches; equal keys keep their order (Array sort is stable). */
export function compareKeys(a: DocumentKey, b: DocumentKey): number {
  if (a.asset !== b.asset) return a.asset < b.asset ? -1 : 1;
  return a.timestampMs - b.timestampMs;
}
