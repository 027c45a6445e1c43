/**
 * Where a remotedatapost transmit turns its rounds into request bodies (upload-bodies.ts) and
 * deletes what was delivered. A small round (stored batches of at most INLINE_BYTES together: a
 * plant that sends a few records a second) is done on the thread that runs the transmit (the
 * API's), well under a millisecond. A bigger round of several stored batches is bulk: its merging
 * (gunzip, sort, gzip) and its delete go to the transmit's encode thread. One stored batch
 * sent as it is (a file chunk's batch, however big) needs only encryption, which costs the same
 * anywhere, and one delete: both are done here, the delete without ever waiting for the write lock
 * that parse threads hold through their commits' syncs (AgentStore.ackWhenFree). Handing them to
 * the thread cost more than doing them: its start-up beside two busy parse threads, its copies and
 * messages (a 1M-row drop: ~0.1 CPU s less and ~0.1 s sooner without it). The thread starts with the
 * first merged bulk round and ends ENCODER_IDLE_MS after the last one; while it runs it deletes
 * every round (once it is up: until its first answer, deletes are done here rather than wait for
 * it). A transmit that never merges a bulk round never starts it: ~20 MB of memory
 * (docs/decisions/0031-small-work-on-the-main-thread.md).
 */
import type { Logger } from '../../logging/logger.js';
import { type Disposable, DisposableStore } from '../../lifecycle/index.js';
import type { OutboxReader } from '../../components/contract.js';
import { WorkerClient } from '../../workers/worker-client.js';
import { threadScript } from '../../workers/thread-scripts.js';
import type { EncodeRequest, EncodeResponse } from './encode-protocol.js';
import { type BatchDecoder, type UploadBody, bodyAsStored, encodeBodies } from './upload-bodies.js';

/**
 * Stored bytes of a round encoded on the API thread at most (merging batches: gunzip, sort, gzip
 * ~1–2 ms). A bigger round is bulk (a file chunk's batch alone is ~40 KB): its thread keeps the
 * API thread from waiting for the write lock to delete what was sent while parse threads commit.
 */
export const INLINE_BYTES = 32 * 1024;
/** The encode thread ends after this long without a round for it. */
export const ENCODER_IDLE_MS = 60_000;

export type RoundRequest = Omit<EncodeRequest, 'id' | 'kind'>;
/** A round's bodies, and where its delete is done. */
export interface EncodedRound {
  bodies: UploadBody[];
  /** The bodies were made by the encode thread. */
  onThread: boolean;
  /** The delivered batches are deleted by the encode thread. */
  ackOnThread: boolean;
  /** More than INLINE_BYTES stored: only such rounds keep the encode thread running. */
  bulk: boolean;
}

export class UploadEncoder {
  private readonly thread: WorkerClient<EncodeRequest, EncodeResponse>;
  private inFlight = 0;
  /** The idle timer; a request after close() starts the thread, and the timer, again. */
  private readonly timers = new DisposableStore();
  private idleTimer: Disposable | undefined;

  constructor(
    threadName: string,
    private readonly store: Pick<OutboxReader, 'payloadsOf' | 'ackWhenFree'>,
    private readonly decode: BatchDecoder,
    logger: Logger,
    private readonly idleMs = ENCODER_IDLE_MS,
  ) {
    this.thread = new WorkerClient(threadScript('encode'), threadName, logger);
  }

  /** Whether the encode thread runs now. */
  get threadRunning(): boolean {
    return this.thread.running;
  }

  /** Whether the encode thread runs and is up (it has answered since it started). */
  get threadReady(): boolean {
    return this.thread.ready;
  }

  /** The bodies of a round whose outbox rows hold `storedBytes` together. */
  async encode(request: RoundRequest, storedBytes: number): Promise<EncodedRound> {
    const bulk = storedBytes > INLINE_BYTES;
    if (!bulk && !this.thread.running) return { bodies: encodeBodies(this.store, request, this.decode), onThread: false, ackOnThread: false, bulk };
    if (request.ids.length === 1) {
      const asStored = bodyAsStored(this.store.payloadsOf(request.transmit, request.ids), request);
      if (asStored) {
        if (this.thread.running) this.keepAlive(bulk);
        return { bodies: [asStored], onThread: false, ackOnThread: this.thread.running, bulk };
      }
    }
    const response = await this.call({ ...request, kind: 'encode' }, bulk);
    if (!response.ok) throw new Error(`Encoding the upload failed: ${response.error}`);
    const bodies = response.bodies.map(({ body, records }) => ({ body: Buffer.from(body.buffer, body.byteOffset, body.byteLength), records }));
    return { bodies, onThread: true, ackOnThread: true, bulk };
  }

  /**
   * The destination has the round: delete its batches, on the encode thread once it is up. Until
   * then here: a first bulk round waited ~300 ms for a thread starting beside two busy parse
   * threads, and the uploads behind it with it. Here without waiting for the write lock on this
   * thread (AgentStore.ackWhenFree).
   */
  async ack(request: RoundRequest, round: EncodedRound, signal?: AbortSignal): Promise<void> {
    if (round.ackOnThread && this.thread.ready) {
      const acked = await this.call({ ...request, kind: 'ack' }, round.bulk);
      if (!acked.ok) throw new Error(`Removing delivered records from the outbox failed: ${acked.error}`);
      return;
    }
    try {
      await this.store.ackWhenFree(request.transmit, request.ids, signal);
    } catch (cause) {
      throw new Error(`Removing delivered records from the outbox failed: ${(cause as Error).message}`);
    }
  }

  /**
   * Fails the requests in flight at once; the thread's end, awaited here, can take as long as the
   * statement it runs (a wait for the write lock that a parse thread holds).
   */
  async close(): Promise<void> {
    if (this.idleTimer) this.timers.delete(this.idleTimer);
    this.idleTimer = undefined;
    await this.thread.close();
  }

  private async call(message: Omit<EncodeRequest, 'id'>, bulk: boolean): Promise<EncodeResponse> {
    this.inFlight += 1;
    try {
      return await this.thread.request(message);
    } finally {
      this.inFlight -= 1;
      this.keepAlive(bulk);
    }
  }

  /**
   * Only bulk rounds keep the thread: its idle time counts from the last of them, so that small
   * rounds after a backlog (a plant sending a few records a second) let it end.
   */
  private keepAlive(bulk: boolean): void {
    if (bulk || !this.idleTimer) this.endWhenIdle();
  }

  /** Ends the thread after idleMs (or, if a request is then in flight, once it is answered and idleMs more have passed). */
  private endWhenIdle(): void {
    if (this.idleTimer) this.timers.delete(this.idleTimer);
    this.idleTimer = this.timers.setTimeout(() => {
      this.idleTimer = undefined;
      if (this.inFlight === 0) void this.thread.close();
      else this.endWhenIdle();
    }, this.idleMs);
  }
}
