/**
 * Worker thread that turns queued outbox batches into upload bodies (upload-bodies.ts), so that
 * encoding big rounds never blocks the thread serving the API, and deletes delivered batches. It
 * reads the outbox through its own SQLite connection (WAL allows it); only ids and finished bodies
 * cross threads. Started by upload-encoder.ts when a round is too big for the API thread.
 */
import { parentPort } from 'node:worker_threads';
import { outboxReaders } from '../catalog/outbox-codecs.js';
import { AgentStore } from '../store/agent-store.js';
import { encodeBodies } from '../transmits/remotedatapost/upload-bodies.js';
import { lowerThreadPriority } from '../workers/thread-priority.js';
import type { EncodeRequest, EncodeResponse } from '../transmits/remotedatapost/encode-protocol.js';

let store: AgentStore | undefined;
let storeFile: string | undefined;
// Batches in other formats are read by the codec that wrote them (catalog/outbox-codecs.ts).
const registry = outboxReaders();
// Bulk work: below the API thread on Linux (thread-priority.ts).
lowerThreadPriority();

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
    const out = encodeBodies(store!, request, (format, payload) =>
      registry.decode(format, payload),
    ).map(({ body, records }) => ({ body: new Uint8Array(body), records }));
    response = { id: request.id, ok: true, bodies: out };
    parentPort!.postMessage(response, out.map((b) => b.body.buffer as ArrayBuffer));
  } catch (cause) {
    response = { id: request.id, ok: false, error: (cause as Error).message };
    parentPort!.postMessage(response);
  }
});
