/**
 * Worker thread that reads, parses and commits file chunks (rows → records → transforms → outbox,
 * with the file's new position, in one transaction), so that big files never block the thread
 * serving the API and the console. One of the agent's shared parse threads (ParseWorkerPool): a
 * chunk of any receiver, one at a time; answers carry the request id.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parentPort, threadId } from 'node:worker_threads';
import { builtInComponents } from '../../components/built-in.js';
import { WorkerCommitTargets } from '../../pipeline/worker-commit-targets.js';
import { BatchCommitter } from '../../pipeline/batch-committer.js';
import { FusedUploadPath } from '../../pipeline/fused-upload.js';
import type { ParseRequest, ParseResponse } from './parse-protocol.js';
import { ChunkHandler } from './chunk-handler.js';

// The same registry as the main thread's (one module): the same transforms and outbox codecs.
// TRIBUTARY_FUSED_PATH=off reads every chunk by the general path (to measure or rule out the fused one).
const committer = new BatchCommitter(builtInComponents(), new WorkerCommitTargets());
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

const handler = new ChunkHandler(committer, process.env.TRIBUTARY_FUSED_PATH === 'off' ? null : new FusedUploadPath(committer));

parentPort?.on('message', (request: ParseRequest) => {
  let response: ParseResponse;
  try {
    response = handler.handle(request);
  } catch (cause) {
    const error = cause as NodeJS.ErrnoException;
    response = { id: request.id, ok: false, error: error.message, code: error.code, thread: threadId };
  }
  parentPort!.postMessage(response);
});
