import { DisposableStore, type Disposable } from './disposable-store.js';

export interface PollingLoopOptions {
  /** One run. Returns the wait before the next run in ms (a retry or an earlier due time), or nothing. */
  step: () => Promise<number | void>;
  /** The wait when the step names none (the poll interval). */
  intervalMs: () => number;
  /** A step that throws: reported here, and the loop waits the interval. */
  onError: (error: unknown) => void;
}

/**
 * The polling receivers' schedule loop, written once: run a step, wait, run again. Runs never overlap,
 * `dispose()` stops it promptly and resolves when a run in progress has finished.
 */
export class PollingLoop implements Disposable {
  private readonly store = new DisposableStore();
  private timer: Disposable | undefined;
  private dueAt = Infinity;
  private running: Promise<void> | undefined;

  constructor(private readonly options: PollingLoopOptions) {}

  get disposed(): boolean {
    return this.store.disposed;
  }

  /** True while a step runs. */
  get busy(): boolean {
    return this.running !== undefined;
  }

  /** Runs the next step within `ms` (sooner wins over a later scheduled run; ignored during a run). */
  schedule(ms: number): void {
    if (this.store.disposed || this.running) return;
    const at = Date.now() + ms;
    if (this.timer && this.dueAt <= at) return;
    this.arm(ms);
  }

  /** Stops scheduling; resolves once a run in progress has finished. */
  dispose(): Promise<void> {
    this.store.dispose();
    this.timer = undefined;
    return this.running ?? Promise.resolve();
  }

  private arm(ms: number): void {
    if (this.timer) this.store.delete(this.timer);
    this.dueAt = Date.now() + ms;
    this.timer = this.store.setTimeout(() => {
      this.timer = undefined;
      this.run();
    }, ms);
  }

  private run(): void {
    this.running = (async () => {
      let wait: number | void = undefined;
      try {
        wait = await this.options.step();
      } catch (error) {
        this.options.onError(error);
      }
      return wait;
    })().then((wait) => {
      this.running = undefined;
      if (!this.store.disposed) this.arm(typeof wait === 'number' ? Math.max(0, wait) : this.options.intervalMs());
    });
  }
}
