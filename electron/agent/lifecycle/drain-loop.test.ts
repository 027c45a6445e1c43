import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DrainLoop, type DrainOutcome, failureBackoffMs } from './drain-loop.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('DrainLoop', () => {
  it('coalesces kicks: one drain at a time, and one more drain for kicks that came during it', async () => {
    const gate = deferred();
    let drains = 0;
    const loop = new DrainLoop({
      drain: async () => {
        drains += 1;
        if (drains === 1) await gate.promise;
      },
      idleMs: () => undefined,
      onError: () => undefined,
    });
    loop.kick();
    loop.kick();
    loop.kick();
    expect(drains).toBe(1);
    gate.resolve();
    await vi.advanceTimersByTimeAsync(0);
    expect(drains).toBe(2);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(drains).toBe(2);
    await loop.dispose();
  });

  it('drains again after the idle wait without a kick', async () => {
    const drain = vi.fn(async () => undefined);
    const loop = new DrainLoop({ drain, idleMs: () => 1000, onError: () => undefined });
    loop.kick();
    await vi.advanceTimersByTimeAsync(2500);
    expect(drain).toHaveBeenCalledTimes(3);
    await loop.dispose();
  });

  it('after a back-off ignores kicks until it ends, then drains', async () => {
    const outcomes: DrainOutcome[] = [{ backoffMs: 300 }];
    const drain = vi.fn(async () => outcomes.shift());
    const loop = new DrainLoop({ drain, idleMs: () => undefined, onError: () => undefined });
    loop.kick();
    await vi.advanceTimersByTimeAsync(0);
    loop.kick();
    await vi.advanceTimersByTimeAsync(299);
    expect(drain).toHaveBeenCalledOnce();
    await vi.advanceTimersByTimeAsync(1);
    expect(drain).toHaveBeenCalledTimes(2);
    await loop.dispose();
  });

  it('reports a drain that throws and backs off for the idle wait', async () => {
    const errors: unknown[] = [];
    let drains = 0;
    const loop = new DrainLoop({
      drain: async () => {
        drains += 1;
        if (drains === 1) throw new Error('disk full');
      },
      idleMs: () => 500,
      onError: (error) => errors.push(error),
    });
    loop.kick();
    await vi.advanceTimersByTimeAsync(0);
    loop.kick();
    await vi.advanceTimersByTimeAsync(0);
    expect(drains).toBe(1);
    expect((errors[0] as Error).message).toBe('disk full');
    await vi.advanceTimersByTimeAsync(500);
    expect(drains).toBe(2);
    await loop.dispose();
  });

  it('dispose during a drain waits for it; no drain or timer follows', async () => {
    const gate = deferred();
    const drain = vi.fn(() => gate.promise);
    const loop = new DrainLoop({ drain, idleMs: () => 100, onError: () => undefined });
    loop.kick();
    loop.kick();
    let stopped = false;
    const stopping = loop.dispose().then(() => (stopped = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(false);
    gate.resolve();
    await stopping;
    loop.kick();
    await vi.advanceTimersByTimeAsync(1000);
    expect(drain).toHaveBeenCalledOnce();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('is woken by what it subscribed to, and unsubscribes when disposed', async () => {
    const listeners = new Set<() => void>();
    const drain = vi.fn(async () => undefined);
    const loop = new DrainLoop({ drain, idleMs: () => undefined, onError: () => undefined, wake: (kick) => (listeners.add(kick), () => listeners.delete(kick)) });
    for (const kick of listeners) kick();
    await vi.advanceTimersByTimeAsync(0);
    expect(drain).toHaveBeenCalledOnce();
    await loop.dispose();
    expect(listeners.size).toBe(0);
  });

  it('backs off a failed delivery by the poll interval, doubling, at most a minute', () => {
    expect([1, 2, 3, 7, 40].map((failures) => failureBackoffMs(1, failures))).toEqual([1000, 2000, 4000, 60_000, 60_000]);
    expect(failureBackoffMs(30, 1)).toBe(30_000);
  });
});
