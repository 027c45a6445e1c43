/**
 * Worker thread that reads, parses and commits file chunks (rows → records → transforms → outbox,
 * with the file's new position, in one transaction), so that big files never block the thread
 * serving the API and the console. One of the agent's shared parse threads (ParseWorkerPool): a
 * chunk of any receiver, one at a time; answers carry the request id.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parentPort } from 'node:worker_threads';
import type { ParseRequest } from './parse-protocol.js';
import { createChunkRunner } from './chunk-runner.js';

const runner = createChunkRunner();
lowerThreadPriority();

/**
 * Bulk reading yields to everything else on the edge PC, the API thread of this process included:
 * on Linux this thread (only) gets nice 10. Elsewhere the priority stays as it is.
 */
function lowerThreadPriority(): void {
  if (process.platform !== 'linux') return;
  try {
    const tid = Number(path.basename(fs.readlinkSync('/proc/thread-self')));
    if (Number.isInteger(tid) && tid > 0) os.setPriority(tid, 10);
  } catch {
    // Not permitted or not available: run at normal priority.
  }
}

parentPort?.on('message', (request: ParseRequest) => {
  parentPort!.postMessage(runner.handle(request));
});
