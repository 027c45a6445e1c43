/**
 * Worker thread that turns queued outbox batches into upload bodies (JSON → BSON → gzip → Fernet),
 * so that encoding never blocks the thread serving the API. It reads the outbox through its own
 * SQLite connection (WAL allows it); only ids and finished bodies cross threads.
 */
import { parentPort } from 'node:worker_threads';
import { AgentStore } from '../../store/agent-store.js';
import { MAX_REQUEST_BYTES, encodeUpload } from './wire.js';
import type { EncodeRequest, EncodeResponse } from './encode-protocol.js';
import type { AgentRecord } from '../../../../shared/records/record.js';

const MULTIPART_OVERHEAD = 512;
let store: AgentStore | undefined;
let storeFile: string | undefined;

function bodies(records: AgentRecord[], request: EncodeRequest, out: { body: Uint8Array; records: number }[]): void {
  for (let i = 0; i < records.length; i += request.maxRecords) {
    const slice = records.slice(i, i + request.maxRecords);
    const body = encodeUpload(slice, { apiKey: request.apiKey, useEncryption: request.useEncryption });
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
    bodies(store!.recordsOf(request.transmit, request.ids), request, out);
    response = { id: request.id, ok: true, bodies: out };
    parentPort!.postMessage(response, out.map((b) => b.body.buffer as ArrayBuffer));
  } catch (cause) {
    response = { id: request.id, ok: false, error: (cause as Error).message };
    parentPort!.postMessage(response);
  }
});
