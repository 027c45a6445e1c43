import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Logger } from '../../logging/logger.js';
import type { ParseRequest, ParseResponse } from './parse-protocol.js';

/**
 * The compiled worker script. Under the TypeScript test runner this module is a .ts file and
 * worker threads cannot load TypeScript, so the compiled copy in dist/ is used (built before tests).
 */
export function workerScriptPath(): string {
  const here = fileURLToPath(import.meta.url);
  const sibling = path.join(path.dirname(here), 'parse-worker.js');
  if (fs.existsSync(sibling)) return sibling;
  const root = here.slice(0, here.lastIndexOf(`${path.sep}electron${path.sep}`));
  return path.join(root, 'dist', path.relative(root, path.dirname(here)), 'parse-worker.js');
}

/** Talks to one parse worker; restarts it if it dies; one request in flight at a time per caller. */
export class ParseWorkerClient {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (r: ParseResponse) => void; reject: (e: Error) => void }>();

  constructor(
    readonly threadName: string,
    private readonly logger: Logger,
  ) {}

  private ensure(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(workerScriptPath(), { name: this.threadName });
    worker.on('message', (response: ParseResponse) => {
      const waiter = this.pending.get(response.id);
      this.pending.delete(response.id);
      waiter?.resolve(response);
    });
    worker.on('error', (error) => {
      this.logger.error(`parse worker ${this.threadName} failed`, error);
      this.failAll(error);
    });
    worker.on('exit', (code) => {
      if (this.worker === worker) this.worker = undefined;
      if (code !== 0) this.failAll(new Error(`parse worker exited with code ${code}`));
    });
    this.worker = worker;
    return worker;
  }

  private failAll(error: Error): void {
    for (const waiter of this.pending.values()) waiter.reject(error);
    this.pending.clear();
    this.worker = undefined;
  }

  parse(request: Omit<ParseRequest, 'id'>): Promise<ParseResponse> {
    const worker = this.ensure();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      const transfer = request.bytes ? [request.bytes.buffer as ArrayBuffer] : [];
      worker.postMessage({ ...request, id }, transfer);
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    this.failAll(new Error('parse worker closed'));
    if (worker) await worker.terminate();
  }
}
