import os from 'node:os';
import type { Logger } from '../../logging/logger.js';
import { WorkerClient } from '../../workers/worker-client.js';
import { workerScript } from '../../workers/worker-script.js';
import type { ParseRequest, ParseResponse } from './parse-protocol.js';

/**
 * Parse threads of the whole agent: one per core, at most four. Each costs ~45 MiB (its heap and
 * SQLite connections), so they are shared by every file receiver instead of started per receiver:
 * 500 receivers used to mean 1,000 threads and gigabytes. Four keep a big machine's disks busy;
 * more would only compete with the API thread and the transmits.
 */
export const PARSE_THREADS = Math.max(1, Math.min(4, os.availableParallelism()));

/** A chunk's answer, with the thread that handled it (the thread field of the log lines about it). */
export type PooledParseResponse = ParseResponse & { threadName: string };

/** What file receivers need of the parse threads: a chunk in, its answer out. */
export interface ParseWorkers {
  /** How many chunks can be handled at the same time (lanes worth running per receiver). */
  readonly size: number;
  /** Parses and commits one chunk; rejects at once when `signal` aborts before a thread took it. */
  parse(request: Omit<ParseRequest, 'id'>, signal?: AbortSignal): Promise<PooledParseResponse>;
}

interface Waiting {
  request: Omit<ParseRequest, 'id'>;
  signal?: AbortSignal;
  resolve(response: PooledParseResponse): void;
  reject(error: Error): void;
  onAbort?: () => void;
}

/**
 * The agent's parse threads (reading, CSV parsing, transforms and commits off the API thread),
 * shared by every file receiver. Chunks wait in one queue, first come first served, so that many
 * receivers take turns chunk by chunk and none can starve the others; each thread handles one chunk
 * at a time. A thread that dies fails only its chunk (the receiver reads it again) and is started
 * again on the next one.
 */
export class ParseWorkerPool implements ParseWorkers {
  private readonly threads: { client: WorkerClient<ParseRequest, ParseResponse>; busy: boolean }[];
  private readonly queue: Waiting[] = [];
  private closed = false;

  constructor(
    logger: Logger,
    readonly size = PARSE_THREADS,
  ) {
    const script = workerScript(import.meta.url, 'parse-worker.js');
    this.threads = Array.from({ length: size }, (_, i) => ({ client: new WorkerClient<ParseRequest, ParseResponse>(script, `parse:${i + 1}`, logger), busy: false }));
  }

  /** Starts the threads now rather than on the first chunk (a file receiver is starting). */
  start(): void {
    if (this.closed) return;
    for (const thread of this.threads) thread.client.start();
  }

  parse(request: Omit<ParseRequest, 'id'>, signal?: AbortSignal): Promise<PooledParseResponse> {
    if (this.closed) return Promise.reject(new Error('the parse threads are closed'));
    if (signal?.aborted) return Promise.reject(abortError());
    return new Promise((resolve, reject) => {
      const waiting: Waiting = { request, signal, resolve, reject };
      if (signal) {
        waiting.onAbort = () => {
          const index = this.queue.indexOf(waiting);
          if (index < 0) return; // a thread has it already: its commit is whole either way
          this.queue.splice(index, 1);
          reject(abortError());
        };
        signal.addEventListener('abort', waiting.onAbort, { once: true });
      }
      this.queue.push(waiting);
      this.dispatch();
    });
  }

  /** Chunks waiting for a thread (for tests and status). */
  get waiting(): number {
    return this.queue.length;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const waiting of this.queue.splice(0)) waiting.reject(new Error('the parse threads are closed'));
    await Promise.all(this.threads.map((thread) => thread.client.close()));
  }

  private dispatch(): void {
    for (const thread of this.threads) {
      if (thread.busy) continue;
      const next = this.queue.shift();
      if (!next) return;
      if (next.onAbort) next.signal!.removeEventListener('abort', next.onAbort);
      thread.busy = true;
      // Remote bytes move to the thread instead of being copied.
      const transfer = next.request.bytes ? [next.request.bytes.buffer as ArrayBuffer] : [];
      thread.client.request(next.request, transfer).then(
        (response) => next.resolve({ ...response, threadName: thread.client.threadName }),
        (error: Error) => next.reject(error),
      ).finally(() => {
        thread.busy = false;
        this.dispatch();
      });
    }
  }
}

function abortError(): Error {
  return Object.assign(new Error('reading stopped'), { code: 'ABORT_ERR' });
}
