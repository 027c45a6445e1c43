import type { AgentRecord } from '../../../shared/records/record.js';
import type { CommitProgress, StreamKey } from '../components/contract.js';
import { type Disposable, DisposableStore } from '../lifecycle/index.js';

/** One stream's batch and the receiver that read it. */
export interface ReceiverBatch {
  receiver: string;
  stream: StreamKey;
  records: AgentRecord[];
  progress: CommitProgress;
}

/** Commits batches together; per batch in order, undefined when committed, else why not. */
export type CommitTogether = (batches: readonly ReceiverBatch[]) => (Error | undefined)[];

interface Waiting {
  batches: readonly ReceiverBatch[];
  resolve: (errors: (Error | undefined)[]) => void;
}

/**
 * Commits what polling receivers submit within `windowMs` of the first waiting batch in one
 * transaction. A hundred devices that each answer once a second would otherwise pay a hundred
 * synced commits a second: at 100 Modbus devices those took 67 % of the main thread's busy time
 * (docs/performance.md). At most `maxBatches` wait; the one that reaches it commits them all at
 * once.
 * A receiver awaits its submission, so a receiver that stops has its last poll stored first.
 */
export class CommitCoalescer implements Disposable {
  private readonly store = new DisposableStore();
  private waiting: Waiting[] = [];
  private count = 0;
  private timer: Disposable | undefined;

  constructor(
    private readonly commit: CommitTogether,
    private readonly windowMs = 100,
    private readonly maxBatches = 1000,
  ) {}

  submit(batches: readonly ReceiverBatch[]): Promise<(Error | undefined)[]> {
    if (batches.length === 0) return Promise.resolve([]);
    return new Promise((resolve) => {
      this.waiting.push({ batches, resolve });
      this.count += batches.length;
      if (this.count >= this.maxBatches || this.store.disposed) this.flush();
      else this.timer ??= this.store.setTimeout(() => this.flush(), this.windowMs);
    });
  }

  /** Commits every waiting batch now. */
  flush(): void {
    if (this.timer) this.store.delete(this.timer);
    this.timer = undefined;
    const waiting = this.waiting;
    this.waiting = [];
    this.count = 0;
    if (waiting.length === 0) return;
    let errors: (Error | undefined)[];
    try {
      errors = this.commit(waiting.flatMap((w) => w.batches));
    } catch (cause) {
      for (const w of waiting) w.resolve(w.batches.map(() => cause as Error));
      return;
    }
    let at = 0;
    for (const w of waiting) {
      w.resolve(errors.slice(at, at + w.batches.length));
      at += w.batches.length;
    }
  }

  /** Commits what waits; later submissions are committed at once. */
  dispose(): void {
    this.flush();
    this.store.dispose();
  }
}
