import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { finishesWithin, withDeadline } from './deadline.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('finishesWithin', () => {
  it('says whether the work finished in time, and leaves no timer behind either way', async () => {
    const quick = finishesWithin(new Promise((resolve) => setTimeout(resolve, 50)), 100);
    await vi.advanceTimersByTimeAsync(50);
    expect(await quick).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
    const slow = finishesWithin(new Promise(() => undefined), 100);
    await vi.advanceTimersByTimeAsync(100);
    expect(await slow).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('throws what the work threw, and clears its timer', async () => {
    await expect(finishesWithin(Promise.reject(new Error('socket gone')), 1000)).rejects.toThrow('socket gone');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('withDeadline: aborts the work with a TimeoutError after its time, and leaves no timer once the work settled', async () => {
    expect(await withDeadline(1000, async () => 'answered')).toBe('answered');
    expect(vi.getTimerCount()).toBe(0);
    const slow = withDeadline(100, (signal) => new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason))));
    const failure = expect(slow).rejects.toMatchObject({ name: 'TimeoutError' });
    await vi.advanceTimersByTimeAsync(100);
    await failure;
    expect(vi.getTimerCount()).toBe(0);
  });
});
