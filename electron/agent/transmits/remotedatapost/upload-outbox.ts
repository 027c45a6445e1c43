/**
 * The outbox of a remotedatapost transmit: each batch is the body of one RDP2 upload before
 * encryption, gzip of the record documents sorted as the wire wants them (decisions.md). Records are
 * encoded and compressed once, when they are committed (usually in a receiver's parse worker), the
 * on-disk buffer is ~10x smaller than BSON or JSON, and an upload only encrypts. Times are kept to
 * the millisecond, as BSON dates hold them.
 */
import { BSON } from 'bson';
import zlib from 'node:zlib';
import { type AgentRecord, isoMicros } from '../../../../shared/records/record.js';
import type { EncodedBatch, OutboxCodec } from '../../components/contract.js';
import { splitDocuments } from './bson-documents.js';
import { encodeRecords } from './record-bson.js';
import { GZIP_OPTIONS, sortForUpload } from './wire.js';

export interface UploadOutboxOptions {
  /** Records per stored batch at most: a batch is one request (max_request_records). */
  maxRequestRecords: number;
}

/** gzip of concatenated documents: the RDP2 upload body before encryption. */
export function gzipDocuments(documents: readonly Uint8Array[]): Buffer {
  return zlib.gzipSync(Buffer.concat(documents), GZIP_OPTIONS);
}

/** The documents of a concatenation, as slices of it. */
export function documentSlices(bytes: Buffer): Buffer[] {
  const ends = splitDocuments(bytes);
  return Array.from(ends, (end, i) => bytes.subarray(i === 0 ? 0 : ends[i - 1]!, end));
}

/** The BSON documents of a stored upload batch, in order. */
export function documentsOf(payload: Buffer): Buffer[] {
  return documentSlices(zlib.gunzipSync(payload));
}

/** Splits n records into as many even parts as needed so that none holds more than `maxRequestRecords`: their sizes. */
export function partSizes(n: number, maxRequestRecords: number): number[] {
  const parts = Math.max(1, Math.ceil(n / Math.max(1, maxRequestRecords)));
  return Array.from({ length: parts }, (_, part) => Math.floor(n / parts) + (part < n % parts ? 1 : 0));
}

/**
 * The stored batches of `count` documents already encoded back to back in upload order (`ends[k]`:
 * the end of document k), split as `encode` splits records; `recordAt(k)` gives document k's record
 * for the batch's first and last (the fused paths build it from what they know, not by decoding).
 */
export function batchesOfDocuments(
  bytes: Buffer,
  ends: ArrayLike<number>,
  count: number,
  maxRequestRecords: number,
  recordAt: (k: number) => AgentRecord,
): EncodedBatch[] {
  const batches: EncodedBatch[] = [];
  let first = 0;
  for (const size of partSizes(count, maxRequestRecords)) {
    const last = first + size - 1;
    const from = first === 0 ? 0 : ends[first - 1]!;
    const payload = zlib.gzipSync(bytes.subarray(from, ends[last]), GZIP_OPTIONS);
    batches.push({ payload, records: size, first: recordAt(first), last: recordAt(last) });
    first += size;
  }
  return batches;
}

/**
 * The payloads of one committed batch: as many as needed so that none holds more than
 * `maxRequestRecords` (each payload is one request), split evenly.
 */
function encode(records: readonly AgentRecord[], { maxRequestRecords }: UploadOutboxOptions): EncodedBatch[] {
  if (records.length === 0) return [];
  const sorted = sortForUpload(records);
  const out: EncodedBatch[] = [];
  let start = 0;
  for (const size of partSizes(sorted.length, maxRequestRecords)) {
    const slice = sorted.slice(start, start + size);
    start += size;
    out.push({ payload: zlib.gzipSync(encodeRecords(slice).bytes, GZIP_OPTIONS), records: slice.length, first: slice[0]!, last: slice[slice.length - 1]! });
  }
  return out;
}

/** The records of a stored upload batch (times with millisecond precision). */
function decode(payload: Buffer): AgentRecord[] {
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

export const UPLOAD_OUTBOX: OutboxCodec<UploadOutboxOptions> = {
  format: 'upload',
  options: (config) => {
    const max = (config as { max_request_records?: unknown }).max_request_records;
    return { maxRequestRecords: typeof max === 'number' ? max : Number.POSITIVE_INFINITY };
  },
  encode,
  decode,
  keptByHistory: true,
};
