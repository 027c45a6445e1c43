import { describe, expect, it } from 'vitest';
import { firstTimestamp, prependLogLines } from './log-buffer.js';

const line = (stamp: string, text: string) => `2026-01-05 06:00:${stamp} | main | agent | INFO | ${text}`;

describe('load older', () => {
  it('puts the older page before the lines shown without repeating the lines of the shared stamp', () => {
    // The view shows the last two lines of 01.000000; the page asked until that stamp has all three.
    const shown = [line('01.000000', 'b'), line('01.000000', 'c'), line('02.000000', 'd')];
    const page = [line('00.500000', 'z'), line('01.000000', 'a'), line('01.000000', 'b'), line('01.000000', 'c')];
    expect(prependLogLines(page, shown)).toEqual([line('00.500000', 'z'), line('01.000000', 'a'), ...shown]);
    expect(firstTimestamp(shown)).toBe('2026-01-05 06:00:01.000000');
  });

  it('adds nothing when the page holds only what is shown, and everything when nothing shown has a stamp', () => {
    const shown = [line('01.000000', 'a')];
    expect(prependLogLines([line('01.000000', 'a')], shown)).toEqual(shown);
    expect(prependLogLines(['older'], ['no stamp'])).toEqual(['older', 'no stamp']);
  });
});
