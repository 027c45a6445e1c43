import { DisposableStore, type Disposable } from './disposable-store.js';

/** What a drain asks for next: nothing (done), or a back-off during which kicks are ignored. */
export type DrainOutcome = void | { backoffMs: number };

export interface DrainLoopOptions {
  /** Sends what is queued. */
  drain: () => Promise<DrainOutcome>;
  /** The wait before an unprompted drain after a successful one (the poll interval); undefined: none. */
  idleMs: () => number | undefined;
  /** A drain that throws: reported here, and treated as a back-off of `idleMs`. */
  onError: (error: unknown) => void;
  /** Subscribes `kick` to what wakes the loop (a transmit: records queued for it); the returned unsubscribe runs on dispose. */
  wake?: (kick: () => void) => () => void;
}

/** A failed delivery's back-off: the poll interval, doubling with each failure in a row, at most a minute. */
export function failureBackoffMs(pollSeconds: number, failures: number): number {
  return Math.min(60_000, pollSeconds * 1000 * 2 ** Math.min(Math.max(failures - 1, 0), 10));
}

/**
 * The transmits' kick/drain loop, written once. `kick()` coalesces: one drain at a time, and a kick that
 * arrives during a drain runs one more drain right after it (the new records are not left for the timer).
 * After a failing drain the loop backs off and ignores kicks until the back-off ends.
 */
export class DrainLoop implements Disposable {
  private readonly store = new DisposableStore();
  private timer: Disposable | undefined;
  private draining: Promise<void> | undefined;
  private again = false;
  private backingOff = false;

  constructor(private readonly options: DrainLoopOptions) {
    if (options.wake) this.store.add(options.wake(() => this.kick()));
  }

  get disposed(): boolean {
    return this.store.disposed;
  }

  kick(): void {
    if (this.store.disposed || this.backingOff) return;
    if (this.draining) {
      this.again = true;
      return;
    }
    if (this.timer) this.store.delete(this.timer);
    this.timer = undefined;
    this.draining = this.run();
  }

  /** Stops kicking; resolves once a drain in progress has finished. */
  dispose(): Promise<void> {
    this.store.dispose();
    this.timer = undefined;
    return this.draining ?? Promise.resolve();
  }

  private async run(): Promise<void> {
    let outcome: DrainOutcome;
    try {
      outcome = await this.options.drain();
    } catch (error) {
      this.options.onError(error);
      outcome = { backoffMs: this.options.idleMs() ?? 0 };
    }
    this.draining = undefined;
    const again = this.again;
    this.again = false;
    if (this.store.disposed) return;
    if (outcome) {
      this.backingOff = true;
      this.wait(outcome.backoffMs);
    } else if (again) {
      this.kick();
    } else {
      const idle = this.options.idleMs();
      if (idle !== undefined) this.wait(idle);
    }
  }

  private wait(ms: number): void {
    this.timer = this.store.setTimeout(() => {
      this.timer = undefined;
      this.backingOff = false;
      this.kick();
    }, ms);
  }
}
