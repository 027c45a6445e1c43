/**
 * The parse thread's composition root: reads, parses and commits chunk requests with its own
 * database connections (ChunkHandler, with the fast path it wires in): the work of a parse thread
 * (parse-worker.ts), and of the main thread for chunks of a few rows (ParseWorkerPool,
 * INLINE_CHUNK_BYTES). A failure is an answer (`ok: false`), never a throw.
 */
import { threadId } from 'node:worker_threads';
import { builtInComponents } from '../catalog/built-in.js';
import { BatchCommitter } from '../pipeline/batch-committer.js';
import { FusedUploadPath } from '../transmits/remotedatapost/fused-upload.js';
import { WorkerCommitTargets } from '../pipeline/worker-commit-targets.js';
import { ChunkHandler } from './chunk-handler.js';
import type { ChunkRunner, ParseRequest, ParseResponse } from '../components/parse-protocol.js';

/** A failure as an answer. */
function failed(request: ParseRequest, cause: unknown): ParseResponse {
  const error = cause as NodeJS.ErrnoException;
  return { id: request.id, ok: false, error: error.message, code: error.code, thread: threadId };
}

export function createChunkRunner(): ChunkRunner {
  const targets = new WorkerCommitTargets();
  // The same registry as the agent's (one module): the same transforms and outbox codecs.
  const committer = new BatchCommitter(builtInComponents(), targets);
  // TRIBUTARY_FUSED_PATH=off reads every chunk by the general path (to measure or rule out the
  // fused one).
  const fused = process.env.TRIBUTARY_FUSED_PATH !== 'off';
  const handler = new ChunkHandler(
    committer,
    fused ? new FusedUploadPath(committer) : null,
    // Loaded with the document readers, on the thread's first document (ChunkHandler).
    fused
      ? async () => {
          const lines = await import('../transmits/remotedatapost/fused-json-lines.js');
          return new lines.FusedJsonLines(committer);
        }
      : null,
  );
  return {
    handle(request) {
      try {
        const response = handler.handle(request);
        if (response instanceof Promise)
          return response.catch((cause: unknown) => failed(request, cause));
        return response;
      } catch (cause) {
        return failed(request, cause);
      }
    },
    close: () => {
      handler.close();
      targets.close();
    },
  };
}
