import fs from 'node:fs';
import path from 'node:path';
import type { StorageHealth } from './storage-health.js';
import { type Disposable, DisposableStore } from '../lifecycle/index.js';

/** Bytes a probe writes: one page, so that a full tmpfs (which allocates whole pages) says no. */
const PROBE_BYTES = 4096;

/** True when `folder` takes a small file now (written and removed again). */
export function folderTakesWrites(folder: string): boolean {
  const probe = path.join(folder, `.tributary-probe-${process.pid}`);
  try {
    fs.writeFileSync(probe, Buffer.alloc(PROBE_BYTES), { mode: 0o600 });
    return true;
  } catch {
    return false;
  } finally {
    fs.rmSync(probe, { force: true });
  }
}

/**
 * Makes the agent resume by itself when space returns. While StorageHealth lists a problem, every
 * `intervalMs` its area's retry runs: what the runtime registered for it (write the pending agent
 * state, flush a log), or else a probe of the folder. Components that retry on their own (receivers
 * each poll, transmits each round) resolve their problems themselves; the probe only clears a
 * problem nobody writes to again soon.
 */
export class StorageRecovery {
  /** The subscription to the health and the retry timer; stop() disposes it, and no timer starts after. */
  private readonly store = new DisposableStore();
  private timer: Disposable | undefined;
  private readonly retries = new Map<string, () => boolean>();

  constructor(
    private readonly health: StorageHealth,
    private readonly intervalMs = 5000,
  ) {
    this.store.add(
      health.onChange((_problem, resolved) => {
        if (!resolved) this.arm();
      }),
    );
  }

  /** While `area` has a problem, `attempt` runs every interval; true means it worked. */
  retry(area: string, attempt: () => boolean): void {
    this.retries.set(area, attempt);
    this.arm();
  }

  /** Runs every due retry now (the timer does this every interval). */
  runOnce(): void {
    for (const problem of this.health.problems()) {
      const attempt = this.retries.get(problem.area) ?? (() => folderTakesWrites(problem.path));
      let worked = false;
      try {
        worked = attempt();
      } catch {
        worked = false;
      }
      if (worked && this.health.problem(problem.area)) {
        this.retries.delete(problem.area);
        this.health.resolve(problem.area);
      }
    }
    for (const area of this.retries.keys()) if (!this.health.problem(area)) this.retries.delete(area);
    if (this.health.healthy) this.disarm();
  }

  stop(): void {
    this.store.dispose();
    this.timer = undefined;
  }

  private arm(): void {
    if (this.timer || this.health.healthy || this.store.disposed) return;
    this.timer = this.store.setInterval(() => this.runOnce(), this.intervalMs);
  }

  private disarm(): void {
    if (this.timer) this.store.delete(this.timer);
    this.timer = undefined;
  }
}
