/**
 * Worker thread that turns queued outbox batches into upload bodies, so that encoding never blocks
 * the thread serving the API. A batch is stored as the body of one request before encryption
 * (upload-outbox.ts): one batch → encrypt and done. Several small batches in one request (e.g. from
 * frequent SQL polls) are merged by asset and timestamp and compressed again. It reads the outbox
 * through its own SQLite connection (WAL allows it); only ids and finished bodies cross threads.
 */
import zlib from 'node:zlib';
import { parentPort } from 'node:worker_threads';
import { builtInComponents } from '../../components/built-in.js';
import { AgentStore } from '../../store/agent-store.js';
import { UPLOAD_OUTBOX, documentSlices, gzipDocuments } from './upload-outbox.js';
import { fernetEncrypt, fernetKeyFromApiKey } from './fernet.js';
import { sortDocuments, splitDocuments } from './bson-documents.js';
import { type EncodedRecords, encodeRecords } from './record-bson.js';
import { sortForUpload } from './wire.js';
import type { EncodeRequest, EncodeResponse } from './encode-protocol.js';

const MULTIPART_OVERHEAD = 512;
let store: AgentStore | undefined;
let storeFile: string | undefined;
// Batches in other formats (stored before upload batches existed, or by a transmit of another type
// under this name) are read by the codec that wrote them: the registry every thread builds.
const registry = builtInComponents();

type Body = { body: Uint8Array; records: number };

/** The documents of the batches, in upload order. */
function mergedDocuments(batches: { format: string; payload: Buffer }[]): Buffer[] {
  const parts: EncodedRecords[] = batches.map((batch) => {
    if (batch.format === UPLOAD_OUTBOX.format) {
      const bytes = zlib.gunzipSync(batch.payload);
      return { bytes, ends: splitDocuments(bytes) };
    }
    return encodeRecords(sortForUpload(registry.decode(batch.format, batch.payload)));
  });
  return documentSlices(parts.length === 1 ? parts[0]!.bytes : sortDocuments(parts));
}

function seal(gzipped: Buffer, request: EncodeRequest): Buffer {
  return request.useEncryption ? fernetEncrypt(fernetKeyFromApiKey(request.apiKey), gzipped) : gzipped;
}

/** Bodies of at most maxRecords documents and maxRequestBytes each (halving until they fit). */
function bodies(documents: Buffer[], request: EncodeRequest, out: Body[]): void {
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

function encode(request: EncodeRequest): Body[] {
  const batches = store!.payloadsOf(request.transmit, request.ids);
  const only = batches.length === 1 ? batches[0]! : undefined;
  const fits = (payload: Buffer) => payload.length + 64 + MULTIPART_OVERHEAD < request.maxRequestBytes * 0.75;
  if (only?.format === UPLOAD_OUTBOX.format && request.records <= request.maxRecords && fits(only.payload)) {
    // The stored batch is the request body: only encryption is left.
    return [{ body: seal(only.payload, request), records: request.records }];
  }
  const out: Body[] = [];
  bodies(mergedDocuments(batches), request, out);
  return out;
}

parentPort?.on('message', (request: EncodeRequest) => {
  let response: EncodeResponse;
  try {
    if (storeFile !== request.storeFile) {
      store?.close();
      store = new AgentStore(request.storeFile);
      storeFile = request.storeFile;
    }
    if (request.kind === 'ack') {
      // Deleting delivered batches is a write: here it never makes the API thread wait for the
      // write lock that the parse workers' commits hold.
      store!.ack(request.transmit, request.ids);
      parentPort!.postMessage({ id: request.id, ok: true, bodies: [] } satisfies EncodeResponse);
      return;
    }
    // Own ArrayBuffers (not Buffer's shared pool, nor a database row's memory) so they can move.
    const out = encode(request).map(({ body, records }) => ({ body: new Uint8Array(body), records }));
    response = { id: request.id, ok: true, bodies: out };
    parentPort!.postMessage(response, out.map((b) => b.body.buffer as ArrayBuffer));
  } catch (cause) {
    response = { id: request.id, ok: false, error: (cause as Error).message };
    parentPort!.postMessage(response);
  }
});
