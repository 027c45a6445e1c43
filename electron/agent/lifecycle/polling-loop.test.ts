import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PollingLoop } from './polling-loop.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('PollingLoop', () => {
  it('runs a step, then waits the interval, or the shorter delay the step asks for', async () => {
    const waits: Array<number | void> = [undefined, 50, undefined];
    const times: number[] = [];
    const start = Date.now();
    const loop = new PollingLoop({
      step: async () => {
        times.push(Date.now() - start);
        return waits.shift();
      },
      intervalMs: () => 1000,
      onError: () => undefined,
    });
    loop.schedule(0);
    await vi.advanceTimersByTimeAsync(2100);
    expect(times).toEqual([0, 1000, 1050, 2050]);
    await loop.dispose();
  });

  it('never overlaps runs: a schedule during a run is ignored and the next run follows the finished one', async () => {
    const gate = deferred();
    let active = 0;
    let most = 0;
    let runs = 0;
    const loop = new PollingLoop({
      step: async () => {
        runs += 1;
        active += 1;
        most = Math.max(most, active);
        if (runs === 1) await gate.promise;
        active -= 1;
      },
      intervalMs: () => 100,
      onError: () => undefined,
    });
    loop.schedule(0);
    await vi.advanceTimersByTimeAsync(0);
    loop.schedule(0);
    await vi.advanceTimersByTimeAsync(500);
    expect(runs).toBe(1);
    gate.resolve();
    await vi.advanceTimersByTimeAsync(100);
    expect(runs).toBe(2);
    expect(most).toBe(1);
    await loop.dispose();
  });

  it('a sooner schedule replaces a later one, a later one does not', async () => {
    const step = vi.fn(async () => undefined);
    const loop = new PollingLoop({ step, intervalMs: () => 1000, onError: () => undefined });
    loop.schedule(500);
    loop.schedule(900);
    loop.schedule(100);
    await vi.advanceTimersByTimeAsync(100);
    expect(step).toHaveBeenCalledOnce();
    await loop.dispose();
  });

  it('dispose during a run waits for it and schedules nothing after', async () => {
    const gate = deferred();
    const step = vi.fn(() => gate.promise);
    const loop = new PollingLoop({ step, intervalMs: () => 10, onError: () => undefined });
    loop.schedule(0);
    await vi.advanceTimersByTimeAsync(0);
    let stopped = false;
    const stopping = loop.dispose().then(() => (stopped = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(false);
    gate.resolve();
    await stopping;
    await vi.advanceTimersByTimeAsync(1000);
    expect(step).toHaveBeenCalledOnce();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('reports a failing step and keeps polling at the interval', async () => {
    const errors: unknown[] = [];
    let runs = 0;
    const loop = new PollingLoop({
      step: async () => {
        runs += 1;
        if (runs === 1) throw new Error('database went away');
        return 5; // a retry delay, ignored after a failure because the step did not return it
      },
      intervalMs: () => 200,
      onError: (error) => errors.push(error),
    });
    loop.schedule(0);
    await vi.advanceTimersByTimeAsync(199);
    expect(runs).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(runs).toBe(2);
    expect((errors[0] as Error).message).toBe('database went away');
    await loop.dispose();
  });
});
