import { afterEach, describe, expect, it, vi } from 'vitest';
import { RepeatedWarning } from './repeated-warning.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('RepeatedWarning (decision 0061)', () => {
  it('writes the first at once, then one line a minute with how many more, and the next after a quiet minute at once', () => {
    vi.useFakeTimers();
    const lines: string[] = [];
    const noise = new RepeatedWarning((line) => lines.push(line));
    for (let i = 0; i < 5000; i += 1) noise.warn('command', `junk ${i}`);
    noise.warn('state', 'bad state');
    expect(lines).toEqual(['junk 0', 'bad state']);
    vi.advanceTimersByTime(60_000);
    expect(lines.slice(2)).toEqual(['junk 4999 (4999 more like it in the last 60 s; said at most once a minute)']);
    // Still coming: counted for the next minute, not written at once.
    for (let i = 0; i < 10; i += 1) noise.warn('command', `again ${i}`);
    expect(lines).toHaveLength(3);
    vi.advanceTimersByTime(60_000);
    expect(lines.at(-1)).toBe('again 9 (10 more like it in the last 60 s; said at most once a minute)');
    // A minute without any: the kind ends; the next one is written at once.
    vi.advanceTimersByTime(60_000);
    noise.warn('command', 'later');
    expect(lines.at(-1)).toBe('later');
    noise.warn('command', 'last');
    noise.close();
    expect(lines.at(-1)).toBe('last (1 more like it in the last 60 s; said at most once a minute)');
    expect(vi.getTimerCount()).toBe(0);
  });
});
