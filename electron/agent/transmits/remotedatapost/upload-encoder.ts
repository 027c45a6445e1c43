/**
 * Where a remotedatapost transmit turns its rounds into request bodies (upload-bodies.ts). A small
 * round — one stored batch that only needs encryption, or batches of at most INLINE_BYTES together —
 * is encoded on the thread that runs the transmit (the API's: well under a millisecond for the
 * rounds of a plant that sends a few records a second); a bigger one in the transmit's encode
 * thread, which starts with the first big round and ends after ENCODER_IDLE_MS without one, and then
 * takes every round (its deletes never make the API thread wait for the write lock that parse
 * threads' commits hold during a bulk read). A transmit that never sees a big round never starts
 * the thread: ~25 MB of memory the running demo does not need (docs/performance.md).
 */
import type { Logger } from '../../logging/logger.js';
import type { AgentStore } from '../../store/agent-store.js';
import { WorkerClient } from '../../workers/worker-client.js';
import { workerScript } from '../../workers/worker-script.js';
import type { EncodeRequest, EncodeResponse } from './encode-protocol.js';
import { type BatchDecoder, type UploadBody, encodeBodies, fitsOneRequest } from './upload-bodies.js';

/** Stored bytes of several batches merged on the API thread at most (gunzip, sort, gzip ~1–2 ms). */
export const INLINE_BYTES = 32 * 1024;
/** The encode thread ends after this long without a round for it. */
export const ENCODER_IDLE_MS = 60_000;

export type RoundRequest = Omit<EncodeRequest, 'id' | 'kind'>;
/** A round's bodies, and where they were made (its delete is done at the same place). */
export interface EncodedRound {
  bodies: UploadBody[];
  onThread: boolean;
}

export class UploadEncoder {
  private readonly thread: WorkerClient<EncodeRequest, EncodeResponse>;
  private inFlight = 0;
  private idleTimer: NodeJS.Timeout | undefined;

  constructor(
    threadName: string,
    private readonly store: AgentStore,
    private readonly decode: BatchDecoder,
    logger: Logger,
    private readonly idleMs = ENCODER_IDLE_MS,
  ) {
    this.thread = new WorkerClient(workerScript(import.meta.url, 'encode-worker.js'), threadName, logger);
  }

  /** Whether the encode thread runs now. */
  get threadRunning(): boolean {
    return this.thread.running;
  }

  /** The bodies of a round whose outbox rows hold `storedBytes` together. */
  async encode(request: RoundRequest, storedBytes: number): Promise<EncodedRound> {
    const small = request.ids.length === 1 ? request.records <= request.maxRecords && fitsOneRequest(storedBytes, request.maxRequestBytes) : storedBytes <= INLINE_BYTES;
    if (small && !this.thread.running) return { bodies: encodeBodies(this.store, request, this.decode), onThread: false };
    const response = await this.call({ ...request, kind: 'encode' });
    if (!response.ok) throw new Error(`Encoding the upload failed: ${response.error}`);
    const bodies = response.bodies.map(({ body, records }) => ({ body: Buffer.from(body.buffer, body.byteOffset, body.byteLength), records }));
    return { bodies, onThread: true };
  }

  /** The destination has the round: delete its batches, where it was encoded. */
  async ack(request: RoundRequest, round: EncodedRound): Promise<void> {
    if (round.onThread) {
      const acked = await this.call({ ...request, kind: 'ack' });
      if (!acked.ok) throw new Error(`Removing delivered records from the outbox failed: ${acked.error}`);
      return;
    }
    try {
      this.store.ack(request.transmit, request.ids);
    } catch (cause) {
      throw new Error(`Removing delivered records from the outbox failed: ${(cause as Error).message}`);
    }
  }

  async close(): Promise<void> {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    await this.thread.close();
  }

  private async call(message: Omit<EncodeRequest, 'id'>): Promise<EncodeResponse> {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    this.inFlight += 1;
    try {
      return await this.thread.request(message);
    } finally {
      this.inFlight -= 1;
      if (this.inFlight === 0) this.endWhenIdle();
    }
  }

  private endWhenIdle(): void {
    this.idleTimer = setTimeout(() => {
      this.idleTimer = undefined;
      if (this.inFlight === 0) void this.thread.close();
    }, this.idleMs);
    this.idleTimer.unref?.();
  }
}
