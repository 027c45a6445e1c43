/**
 * Worker thread that turns queued outbox batches into upload bodies, so that encoding never blocks
 * the thread serving the API. Batches are stored as wire documents (outbox-codec.ts): the worker
 * concatenates them (merging several batches by asset and timestamp), then gzips and encrypts. It
 * reads the outbox through its own SQLite connection (WAL allows it); only ids and finished bodies
 * cross threads.
 */
import { BSON } from 'bson';
import zlib from 'node:zlib';
import { parentPort } from 'node:worker_threads';
import { AgentStore } from '../../store/agent-store.js';
import { compareKeys, decodeBatch, documentBounds, documentKey } from '../../store/outbox-codec.js';
import { fernetEncrypt, fernetKeyFromApiKey } from './fernet.js';
import { MAX_REQUEST_BYTES, sortForUpload, toDocument } from './wire.js';
import type { EncodeRequest, EncodeResponse } from './encode-protocol.js';

const MULTIPART_OVERHEAD = 512;
let store: AgentStore | undefined;
let storeFile: string | undefined;

/** The documents of the batches, in upload order. */
function documentsOf(batches: { format: 'json' | 'bson'; payload: Buffer }[]): Buffer[] {
  const documents: Buffer[] = [];
  for (const batch of batches) {
    if (batch.format === 'bson') for (const { start, end } of documentBounds(batch.payload)) documents.push(batch.payload.subarray(start, end));
    // Batches queued before outbox formats existed (JSON).
    else for (const record of sortForUpload(decodeBatch('json', batch.payload))) documents.push(Buffer.from(BSON.serialize(toDocument(record))));
  }
  if (batches.length < 2) return documents;
  const keyed = documents.map((document) => ({ document, key: documentKey(document, 0) }));
  keyed.sort((a, b) => compareKeys(a.key, b.key));
  return keyed.map((k) => k.document);
}

function encode(documents: Buffer[], request: EncodeRequest): Buffer {
  const gzipped = zlib.gzipSync(Buffer.concat(documents));
  return request.useEncryption ? fernetEncrypt(fernetKeyFromApiKey(request.apiKey), gzipped) : gzipped;
}

function bodies(documents: Buffer[], request: EncodeRequest, out: { body: Uint8Array; records: number }[]): void {
  for (let i = 0; i < documents.length; i += request.maxRecords) {
    const slice = documents.slice(i, i + request.maxRecords);
    const body = encode(slice, request);
    if (body.length + MULTIPART_OVERHEAD > MAX_REQUEST_BYTES && slice.length > 1) {
      // Too big for one request: halve until each body fits in 4 MiB.
      const half = Math.ceil(slice.length / 2);
      bodies(slice.slice(0, half), { ...request, maxRecords: half }, out);
      bodies(slice.slice(half), { ...request, maxRecords: half }, out);
    } else out.push({ body, records: slice.length });
  }
}

parentPort?.on('message', (request: EncodeRequest) => {
  let response: EncodeResponse;
  try {
    if (storeFile !== request.storeFile) {
      store?.close();
      store = new AgentStore(request.storeFile);
      storeFile = request.storeFile;
    }
    const out: { body: Uint8Array; records: number }[] = [];
    bodies(documentsOf(store!.payloadsOf(request.transmit, request.ids)), request, out);
    response = { id: request.id, ok: true, bodies: out };
    parentPort!.postMessage(response, out.map((b) => b.body.buffer as ArrayBuffer));
  } catch (cause) {
    response = { id: request.id, ok: false, error: (cause as Error).message };
    parentPort!.postMessage(response);
  }
});
