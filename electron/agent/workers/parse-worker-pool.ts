import os from 'node:os';
import type { Logger } from '../logging/logger.js';
import { type Disposable, DisposableStore } from '../lifecycle/index.js';
import { WorkerClient } from './worker-client.js';
import { threadScript } from './thread-scripts.js';
import type { ChunkRunner, ParseRequest, ParseResponse, ParseThreads, PooledParseResponse } from '../components/parse-protocol.js';

/**
 * Parse threads of the whole agent: one per core, at most four. Each costs ~45 MiB (its heap and
 * SQLite connections), so they are shared by every file receiver instead of started per receiver:
 * 500 receivers used to mean 1,000 threads and gigabytes. Four keep a big machine's disks busy;
 * more would only compete with the API thread and the transmits.
 */
export const PARSE_THREADS = Math.max(1, Math.min(4, os.availableParallelism()));

/**
 * The first thread runs while a file receiver runs (with an inline runner: while there is more than
 * a few rows' work, see INLINE_CHUNK_BYTES); the others are spares, started when a chunk has
 * waited this long for a thread (a drop of several files: they start within a chunk's time) and
 * ended after SPARE_IDLE_MS without work. A demo or a plant that appends a few rows a second keeps
 * one thread instead of four (~27 MB each: docs/performance.md, Idle).
 */
export const SPARE_START_WAIT_MS = 50;
export const SPARE_IDLE_MS = 60_000;

/**
 * A chunk with at most this many bytes left to read (the few rows a logger appended since the last
 * look) is read, parsed and committed on the calling thread when the pool has an inline runner:
 * well under a millisecond besides its commit's sync, as an OPC UA or SQL batch is. Then a plant
 * that appends a few rows a second never starts a parse thread (~20 MB each: docs/performance.md),
 * and all threads, the first one too, end after SPARE_IDLE_MS without work.
 */
export const INLINE_CHUNK_BYTES = 16 * 1024;

/** Whether a chunk is small enough for the calling thread (a remote file's bytes included). */
function smallChunk(request: Omit<ParseRequest, 'id'>): boolean {
  return (
    // A whole document (chunkBytes 0) always goes to a thread: a few KiB of zip can unpack to
    // far more work, and only a thread has a heap limit that contains it.
    request.chunkBytes > 0 &&
    request.skipTo === undefined &&
    request.fileSize !== undefined &&
    unreadBytes(request) <= INLINE_CHUNK_BYTES
  );
}

/** Bytes from the chunk's offset to its end, by the size the file had when it was looked at. */
function unreadBytes(request: Omit<ParseRequest, 'id'>): number {
  return Math.min(request.fileSize ?? Infinity, request.end ?? Infinity) - request.offset;
}

export type { ParseWorkers, PooledParseResponse } from '../components/parse-protocol.js';

interface Waiting {
  request: Omit<ParseRequest, 'id'>;
  queuedAt: number;
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
export class ParseWorkerPool implements ParseThreads {
  private readonly threads: {
    client: WorkerClient<ParseRequest, ParseResponse>;
    busy: boolean;
    idleTimer?: Disposable;
  }[];
  private readonly queue: Waiting[] = [];
  /** The pool's timers; disposed (the pool closed) by close(). */
  private readonly store = new DisposableStore();
  private spareTimer: Disposable | undefined;
  private inlineRunner: Promise<ChunkRunner> | undefined;

  /**
   * `inline`: loads the runner for small chunks on this thread (absent: every chunk goes to a
   * thread).
   */
  constructor(
    logger: Logger,
    readonly size = PARSE_THREADS,
    private readonly spares = { startWaitMs: SPARE_START_WAIT_MS, idleMs: SPARE_IDLE_MS },
    private readonly inline?: () => Promise<ChunkRunner>,
  ) {
    const script = threadScript('parse');
    this.threads = Array.from({ length: size }, (_, i) => ({
      client: new WorkerClient<ParseRequest, ParseResponse>(script, `parse:${i + 1}`, logger),
      busy: false,
    }));
  }

  /**
   * Starts the first thread now rather than on the first chunk (a file receiver is starting); with
   * an inline runner threads start for work bigger than a few rows only (warm, or the chunk
   * itself).
   */
  start(): void {
    if (this.store.disposed || this.inline) return;
    this.threads[0]!.client.start();
  }

  warm(threads: number): void {
    if (this.store.disposed) return;
    for (const [index, thread] of this.threads.slice(0, threads).entries()) {
      if (thread.client.running) continue;
      thread.client.start();
      // A spare warmed for work that does not come ends as any idle spare does.
      if (this.retires(index) && !thread.busy) this.retireLater(thread);
    }
  }

  /** Threads running now (for tests and status). */
  get running(): number {
    return this.threads.filter((thread) => thread.client.running).length;
  }

  parse(request: Omit<ParseRequest, 'id'>, signal?: AbortSignal): Promise<PooledParseResponse> {
    if (this.store.disposed) return Promise.reject(new Error('the parse threads are closed'));
    if (signal?.aborted) return Promise.reject(abortError());
    if (this.inline && smallChunk(request)) return this.parseHere(request, signal);
    return new Promise((resolve, reject) => {
      const waiting: Waiting = { request, queuedAt: Date.now(), signal, resolve, reject };
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
    this.store.dispose();
    for (const waiting of this.queue.splice(0))
      waiting.reject(new Error('the parse threads are closed'));
    await Promise.all(this.threads.map((thread) => thread.client.close()));
    (await this.inlineRunner?.catch(() => undefined))?.close();
  }

  /** A small chunk, on this thread (its log lines say `main`). */
  private async parseHere(
    request: Omit<ParseRequest, 'id'>,
    signal?: AbortSignal,
  ): Promise<PooledParseResponse> {
    this.inlineRunner ??= this.inline!().catch((cause: unknown) => {
      this.inlineRunner = undefined;
      throw cause;
    });
    const runner = await this.inlineRunner;
    if (this.store.disposed) throw new Error('the parse threads are closed');
    if (signal?.aborted) throw abortError();
    // No further than the size looked at: a file that grew since is read on at the next look (by a
    // thread if it grew much).
    return {
      ...(await runner.handle({
        ...request,
        chunkBytes: Math.min(request.chunkBytes, Math.max(1, unreadBytes(request))),
        id: 0,
      })),
      threadName: 'main',
    };
  }

  /**
   * Whether a thread ends after idleMs without work: spares, and with an inline runner every
   * thread.
   */
  private retires(index: number): boolean {
    return index > 0 || this.inline !== undefined;
  }

  private dispatch(): void {
    for (const [index, thread] of this.threads.entries()) {
      if (thread.busy) continue;
      const head = this.queue[0];
      if (!head) return;
      if (index > 0 && !thread.client.running && !this.spareDue(head)) continue;
      const next = this.queue.shift()!;
      if (next.onAbort) next.signal!.removeEventListener('abort', next.onAbort);
      if (thread.idleTimer) this.store.delete(thread.idleTimer);
      thread.idleTimer = undefined;
      thread.busy = true;
      // Remote bytes move to the thread instead of being copied.
      const transfer = next.request.bytes ? [next.request.bytes.buffer as ArrayBuffer] : [];
      // The thread is free before its caller hears back: a caller that sends its next chunk at once
      // (a file read chunk after chunk) finds it free instead of starting a spare.
      thread.client
        .request(next.request, transfer)
        .then(
          (response) => {
            thread.busy = false;
            next.resolve({ ...response, threadName: thread.client.threadName });
          },
          (error: Error) => {
            thread.busy = false;
            next.reject(error);
          },
        )
        .finally(() => {
          this.dispatch();
          if (this.retires(index) && !thread.busy && !this.store.disposed) this.retireLater(thread);
        });
    }
  }

  /**
   * Whether the chunk at the head of the queue has waited long enough to start a spare thread for
   * it; if not, looks again when it will have.
   */
  private spareDue(head: Waiting): boolean {
    const wait = head.queuedAt + this.spares.startWaitMs - Date.now();
    if (wait <= 0) return true;
    if (!this.spareTimer) {
      this.spareTimer = this.store.setTimeout(() => {
        this.spareTimer = undefined;
        this.dispatch();
      }, wait);
    }
    return false;
  }

  /** Ends a spare thread that stays without work for spares.idleMs. */
  private retireLater(thread: (typeof this.threads)[number]): void {
    if (thread.idleTimer) this.store.delete(thread.idleTimer);
    thread.idleTimer = this.store.setTimeout(() => {
      thread.idleTimer = undefined;
      if (!thread.busy) void thread.client.close();
    }, this.spares.idleMs);
  }
}

function abortError(): Error {
  return Object.assign(new Error('reading stopped'), { code: 'ABORT_ERR' });
}
