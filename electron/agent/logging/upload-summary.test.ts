import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Logger } from './logger.js';
import { UploadSummary } from './upload-summary.js';

afterEach(() => {
  vi.useRealTimers();
});

function recorder() {
  const lines: string[] = [];
  return { lines, logger: { info: (m: string) => lines.push(m) } as unknown as Logger };
}

describe('upload summary', () => {
  it('writes one line a minute with uploads, records and bytes, and nothing while idle', () => {
    vi.useFakeTimers();
    const { lines, logger } = recorder();
    const summary = new UploadSummary(logger, () => Date.now());
    for (let i = 0; i < 42; i += 1) summary.note(3000, 80 * 1024);
    expect(lines).toEqual([]);
    vi.advanceTimersByTime(60_000);
    expect(lines).toEqual(['42 uploads, 126,000 records (3.3 MiB) in the last 60 s']);
    vi.advanceTimersByTime(600_000);
    expect(lines).toHaveLength(1);
    summary.note(1, 500);
    summary.flush();
    expect(lines[1]).toBe('1 upload, 1 record (500 bytes) in the last 1 s');
    // The window written early (a warning follows, or a stop) does not come again from its timer.
    vi.advanceTimersByTime(60_000);
    expect(lines).toHaveLength(2);
  });
});
