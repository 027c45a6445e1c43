import type { Logger } from '../../logging/logger.js';
import { WorkerClient } from '../../workers/worker-client.js';
import { workerScript } from '../../workers/worker-script.js';
import type { ParseRequest, ParseResponse } from './parse-protocol.js';

/** Talks to one parse worker (reading and CSV parsing off the API thread); restarts it if it dies. */
export class ParseWorkerClient {
  private readonly client: WorkerClient<ParseRequest, ParseResponse>;

  constructor(
    readonly threadName: string,
    logger: Logger,
  ) {
    this.client = new WorkerClient(workerScript(import.meta.url, 'parse-worker.js'), threadName, logger);
  }

  /** Starts the thread now rather than on the first chunk. */
  start(): void {
    this.client.start();
  }

  parse(request: Omit<ParseRequest, 'id'>): Promise<ParseResponse> {
    // Remote bytes move to the worker instead of being copied.
    return this.client.request(request, request.bytes ? [request.bytes.buffer as ArrayBuffer] : []);
  }

  close(): Promise<void> {
    return this.client.close();
  }
}
