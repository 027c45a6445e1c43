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
import { splitDocuments } from '../transmits/remotedatapost/bson-documents.js';
import { encodeRecords } from '../transmits/remotedatapost/record-bson.js';
import { GZIP_LEVEL, sortForUpload } from '../transmits/remotedatapost/wire.js';

export type OutboxFormat = 'json' | 'upload';

export interface EncodedBatch {
  payload: Buffer;
  records: number;
  /** First and last record in stored order (for upload: the earliest and latest of one asset). */
  first: AgentRecord;
  last: AgentRecord;
}

/**
 * The payloads of one committed batch: one for json; for upload, as many as needed so that none
 * holds more than `maxRecords` (each payload is one request), split evenly.
 */
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
    out.push({ payload: zlib.gzipSync(encodeRecords(slice).bytes, { level: GZIP_LEVEL }), records: slice.length, first: slice[0]!, last: slice[slice.length - 1]! });
  }
  return out;
}

/** gzip of concatenated documents: the RDP2 upload body before encryption. */
export function gzipDocuments(documents: readonly Uint8Array[]): Buffer {
  return zlib.gzipSync(Buffer.concat(documents), { level: GZIP_LEVEL });
}

/** The BSON documents of a stored upload batch, in order. */
export function documentsOf(payload: Buffer): Buffer[] {
  return documentSlices(zlib.gunzipSync(payload));
}

/** The documents of a concatenation, as slices of it. */
export function documentSlices(bytes: Buffer): Buffer[] {
  const ends = splitDocuments(bytes);
  return Array.from(ends, (end, i) => bytes.subarray(i === 0 ? 0 : ends[i - 1]!, end));
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
