/**
 * Queued outbox batches → RDP2 request bodies: the work of the encode thread (threads/encode-worker.ts),
 * and of the API thread for rounds small enough not to be felt there (upload-encoder.ts). A batch is
 * stored as the body of one request before encryption (upload-outbox.ts): one batch → encrypt and
 * done. Several small batches in one request (e.g. from frequent SQL polls) are merged by asset and
 * timestamp and compressed again.
 */
import zlib from 'node:zlib';
import type { AgentRecord } from '../../../../shared/records/record.js';
import type { AgentStore } from '../../store/agent-store.js';
import { UPLOAD_OUTBOX, documentSlices, gzipDocuments } from './upload-outbox.js';
import { fernetEncrypt, fernetKeyFromApiKey } from './fernet.js';
import { sortDocuments, splitDocuments } from './bson-documents.js';
import { type EncodedRecords, encodeRecords } from './record-bson.js';
import { sortForUpload } from './wire.js';
import type { EncodeRequest } from './encode-protocol.js';

/** Bytes of a request besides its part's body (boundary, headers). */
const MULTIPART_OVERHEAD = 512;

export type UploadBody = { body: Buffer; records: number };
/** Reads a stored batch of another format (stored before upload batches existed, or by another transmit type). */
export type BatchDecoder = (format: string, payload: Buffer) => AgentRecord[];
type BodyRequest = Pick<EncodeRequest, 'transmit' | 'ids' | 'records' | 'maxRecords' | 'maxRequestBytes' | 'apiKey' | 'useEncryption'>;

/** Whether a stored upload batch is sent as it is (only encryption left): it fits a request with room to spare. */
function fitsOneRequest(payloadBytes: number, maxRequestBytes: number): boolean {
  return payloadBytes + 64 + MULTIPART_OVERHEAD < maxRequestBytes * 0.75;
}

/**
 * The body of a round of one stored upload batch that is sent as it is (only encryption is left),
 * or undefined: the round needs encodeBodies' merging.
 */
export function bodyAsStored(batches: readonly { format: string; payload: Buffer }[], request: BodyRequest): UploadBody | undefined {
  const only = batches.length === 1 ? batches[0]! : undefined;
  if (only?.format !== UPLOAD_OUTBOX.format || request.records > request.maxRecords || !fitsOneRequest(only.payload.length, request.maxRequestBytes)) return undefined;
  return { body: seal(only.payload, request), records: request.records };
}

/** The request bodies of the batches `request.ids`, at most maxRecords documents and maxRequestBytes each. */
export function encodeBodies(store: Pick<AgentStore, 'payloadsOf'>, request: BodyRequest, decode: BatchDecoder): UploadBody[] {
  const batches = store.payloadsOf(request.transmit, request.ids);
  const asStored = bodyAsStored(batches, request);
  if (asStored) return [asStored];
  const out: UploadBody[] = [];
  bodies(mergedDocuments(batches, decode), request, out);
  return out;
}

/** The documents of the batches, in upload order. */
function mergedDocuments(batches: { format: string; payload: Buffer }[], decode: BatchDecoder): Buffer[] {
  const parts: EncodedRecords[] = batches.map((batch) => {
    if (batch.format === UPLOAD_OUTBOX.format) {
      const bytes = zlib.gunzipSync(batch.payload);
      return { bytes, ends: splitDocuments(bytes) };
    }
    return encodeRecords(sortForUpload(decode(batch.format, batch.payload)));
  });
  return documentSlices(parts.length === 1 ? parts[0]!.bytes : sortDocuments(parts));
}

function seal(gzipped: Buffer, request: BodyRequest): Buffer {
  return request.useEncryption ? fernetEncrypt(fernetKeyFromApiKey(request.apiKey), gzipped) : gzipped;
}

/** Bodies of at most maxRecords documents and maxRequestBytes each (halving until they fit). */
function bodies(documents: Buffer[], request: BodyRequest, out: UploadBody[]): void {
  for (let i = 0; i < documents.length; i += request.maxRecords) {
    const slice = documents.slice(i, i + request.maxRecords);
    const body = seal(gzipDocuments(slice), request);
    if (body.length + MULTIPART_OVERHEAD > request.maxRequestBytes && slice.length > 1) {
      const half = Math.ceil(slice.length / 2);
      bodies(slice.slice(0, half), { ...request, maxRecords: half }, out);
      bodies(slice.slice(half), { ...request, maxRecords: half }, out);
    } else out.push({ body, records: slice.length });
  }
}
