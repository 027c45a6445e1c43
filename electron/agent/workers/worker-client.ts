import { Worker } from 'node:worker_threads';
import type { Logger } from '../logging/logger.js';

/**
 * Heap limits of worker threads. V8's defaults (up to 3 x 16 MiB of young generation, and an old
 * generation that grows far before it is collected) are sized for throughput on big machines; the
 * workers' batches are short-lived and small, so tighter limits keep the agent's memory low. The
 * young generation still holds a whole chunk's records (RECORD_CHUNK_BYTES in file-reader.ts) with
 * room to spare: below that they are promoted and collected the expensive way (with 8 MiB a parse
 * worker ran ~50 full collections per million rows and spent ~30 % more CPU; with 16 MiB some runs
 * still did; with 32 MiB none: docs/performance.md). A worker that passes the limit (a CSV line of
 * tens of MiB) ends with an error that its caller reports and retries; nothing is lost. Lines longer
 * than MAX_LINE_BYTES (file-reader.ts) never reach a worker whole.
 */
export const WORKER_LIMITS = { maxYoungGenerationSizeMb: 32, maxOldGenerationSizeMb: 128 };

/**
 * WORKER_LIMITS, with the old generation of TRIBUTARY_THREAD_HEAP_MB when that is set (16–4096):
 * an edge PC with little memory can shrink the threads, one with big exports grow them. A file that
 * needs more than its thread has ends that thread only (ThreadDiedError) and is skipped until it
 * changes.
 */
export function workerLimits(env: NodeJS.ProcessEnv = process.env): import('node:worker_threads').ResourceLimits {
  const heap = Number(env.TRIBUTARY_THREAD_HEAP_MB);
  if (!Number.isInteger(heap) || heap < 16 || heap > 4096) return WORKER_LIMITS;
  return { maxYoungGenerationSizeMb: Math.min(WORKER_LIMITS.maxYoungGenerationSizeMb, Math.max(4, heap / 4)), maxOldGenerationSizeMb: heap };
}

/**
 * A thread ended while it handled requests: it ran out of its heap (ERR_WORKER_OUT_OF_MEMORY) or
 * crashed. The requests in flight on it fail with this error, so that their callers can tell the
 * input that killed a thread (a file: skipped until it changes) from one that only failed.
 */
export class ThreadDiedError extends Error {
  readonly code = 'THREAD_DIED';
  constructor(
    readonly threadName: string,
    /** Whether the thread ran out of memory (its resource limits), rather than crashed. */
    readonly outOfMemory: boolean,
    cause: unknown,
  ) {
    super(
      outOfMemory
        ? `the parse thread ${threadName} ran out of memory`
        : `the thread ${threadName} ended (${cause instanceof Error ? cause.message : String(cause)})`,
      { cause },
    );
  }
}

export function isThreadDeath(cause: unknown): cause is ThreadDiedError {
  return cause instanceof ThreadDiedError;
}

/**
 * Request/response over one worker thread, correlated by id. The worker is started on first use
 * and again after it died; requests in flight when it dies fail (callers retry).
 */
export class WorkerClient<TRequest extends { id: number }, TResponse extends { id: number }> {
  private worker: Worker | undefined;
  /** The current thread has answered: it is up, its modules loaded. */
  private answered = false;
  private nextId = 1;
  private readonly pending = new Map<number, { worker: Worker; resolve: (r: TResponse) => void; reject: (e: Error) => void }>();

  constructor(
    private readonly script: string,
    readonly threadName: string,
    private readonly logger: Logger,
    private readonly resourceLimits: import('node:worker_threads').ResourceLimits = workerLimits(),
  ) {}

  /**
   * Starts the thread ahead of the first request (a component's start), so that loading its modules
   * does not delay the first data; it is started on demand anyway.
   */
  start(): void {
    this.ensure();
  }

  /** Whether the thread is running (started and not closed or dead). */
  get running(): boolean {
    return this.worker !== undefined;
  }

  /** Whether the thread runs and has answered a request since it started (it is up, not loading). */
  get ready(): boolean {
    return this.worker !== undefined && this.answered;
  }

  request(message: Omit<TRequest, 'id'>, transfer: ArrayBuffer[] = []): Promise<TResponse> {
    const worker = this.ensure();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { worker, resolve, reject });
      worker.postMessage({ ...message, id }, transfer);
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    this.fail(undefined, new Error(`worker ${this.threadName} closed`));
    if (worker) await worker.terminate();
  }

  private ensure(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(this.script, { name: this.threadName, resourceLimits: this.resourceLimits });
    worker.on('message', (response: TResponse) => {
      if (this.worker === worker) this.answered = true;
      const waiter = this.pending.get(response.id);
      this.pending.delete(response.id);
      waiter?.resolve(response);
    });
    // Error and exit of a thread come in separate ticks, and a new thread may be serving requests
    // by the time the old one's exit arrives: each event concerns only its own thread's requests.
    worker.on('error', (error) => {
      this.logger.error(`worker ${this.threadName} failed`, error);
      const outOfMemory = (error as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY';
      this.fail(worker, new ThreadDiedError(this.threadName, outOfMemory, error));
    });
    worker.on('exit', (code) => {
      if (code !== 0) this.fail(worker, new ThreadDiedError(this.threadName, false, new Error(`exit code ${code}`)));
      else if (this.worker === worker) this.worker = undefined;
    });
    this.worker = worker;
    this.answered = false;
    return worker;
  }

  /** Rejects the requests in flight on `worker` (all of them without one); it is not used again. */
  private fail(worker: Worker | undefined, error: Error): void {
    for (const [id, waiter] of this.pending) {
      if (worker !== undefined && waiter.worker !== worker) continue;
      this.pending.delete(id);
      waiter.reject(error);
    }
    if (worker === undefined || this.worker === worker) this.worker = undefined;
  }
}
