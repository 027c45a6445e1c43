import { describe, expect, it } from 'vitest';
import { ROW_HEIGHT, rowLayout } from './row-layout.js';

const lines = Array.from({ length: 10 }, (_, i) => ({ raw: `line ${i}` }));

describe('log rows with expanded lines', () => {
  it('is one row height per line when nothing is expanded', () => {
    const layout = rowLayout(lines, new Map());
    expect(layout.total).toBe(10 * ROW_HEIGHT);
    expect(layout.top(4)).toBe(4 * ROW_HEIGHT);
    expect(layout.indexAt(4 * ROW_HEIGHT + 3)).toBe(4);
    expect(layout.indexAt(10_000)).toBe(9);
  });

  it('moves the rows after an expanded line down by its extra height, and finds rows inside it', () => {
    const layout = rowLayout(lines, new Map([['line 2', 100], ['line 5', 50]]));
    expect(layout.total).toBe(10 * ROW_HEIGHT + (100 - ROW_HEIGHT) + (50 - ROW_HEIGHT));
    expect(layout.top(2)).toBe(2 * ROW_HEIGHT);
    expect(layout.top(3)).toBe(2 * ROW_HEIGHT + 100);
    expect(layout.top(6)).toBe(6 * ROW_HEIGHT + (100 - ROW_HEIGHT) + (50 - ROW_HEIGHT));
    expect(layout.indexAt(2 * ROW_HEIGHT + 90)).toBe(2);
    expect(layout.indexAt(layout.top(3) + 1)).toBe(3);
    expect(layout.indexAt(layout.top(5) + 40)).toBe(5);
    expect(layout.indexAt(layout.top(7) + 1)).toBe(7);
  });
});
