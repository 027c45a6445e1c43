/**
 * Worker thread that reads, parses and commits file chunks (rows → records → transforms → outbox,
 * with the file's new position, in one transaction), so that big files never block the thread
 * serving the API and the console. One of the agent's shared parse threads (ParseWorkerPool): a
 * chunk of any receiver, one at a time; answers carry the request id.
 */
import { parentPort } from 'node:worker_threads';
import type { ParseRequest } from '../components/parse-protocol.js';
import { createChunkRunner } from './parse-thread-root.js';
import { lowerThreadPriority } from '../workers/thread-priority.js';

const runner = createChunkRunner();
lowerThreadPriority();

parentPort?.on('message', (request: ParseRequest) => {
  const response = runner.handle(request);
  // The pool sends a thread one request at a time: an answer that waits (for the document readers
  // to load) is not overtaken by the next request's.
  if (response instanceof Promise) void response.then((answer) => parentPort!.postMessage(answer));
  else parentPort!.postMessage(response);
});
