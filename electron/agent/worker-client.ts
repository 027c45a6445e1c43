import { Worker } from 'node:worker_threads';
import type { Logger } from './logging/logger.js';

/**
 * Request/response over one worker thread, correlated by id. The worker is started on first use
 * and again after it died; requests in flight when it dies fail (callers retry).
 */
export class WorkerClient<TRequest extends { id: number }, TResponse extends { id: number }> {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (r: TResponse) => void; reject: (e: Error) => void }>();

  constructor(
    private readonly script: string,
    readonly threadName: string,
    private readonly logger: Logger,
  ) {}

  request(message: Omit<TRequest, 'id'>, transfer: ArrayBuffer[] = []): Promise<TResponse> {
    const worker = this.ensure();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ ...message, id }, transfer);
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    this.failAll(new Error(`worker ${this.threadName} closed`));
    if (worker) await worker.terminate();
  }

  private ensure(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(this.script, { name: this.threadName });
    worker.on('message', (response: TResponse) => {
      const waiter = this.pending.get(response.id);
      this.pending.delete(response.id);
      waiter?.resolve(response);
    });
    worker.on('error', (error) => {
      this.logger.error(`worker ${this.threadName} failed`, error);
      this.failAll(error);
    });
    worker.on('exit', (code) => {
      if (this.worker === worker) this.worker = undefined;
      if (code !== 0) this.failAll(new Error(`worker ${this.threadName} exited with code ${code}`));
    });
    this.worker = worker;
    return worker;
  }

  private failAll(error: Error): void {
    for (const waiter of this.pending.values()) waiter.reject(error);
    this.pending.clear();
    this.worker = undefined;
  }
}
