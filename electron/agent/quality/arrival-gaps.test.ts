import { describe, expect, it } from 'vitest';
import { ArrivalGaps, KEPT_GAPS, expectedInterval, gapsOfMinutes, usualIntervalMs } from './arrival-gaps.js';

describe('the usual interval of a stream', () => {
  it('is the median of recent gaps: one outage does not move it; too few gaps say nothing', () => {
    expect(usualIntervalMs([5000, 5000])).toBeUndefined();
    expect(usualIntervalMs([5000, 4000, 6000, 3_600_000])).toBe(5500);
    expect(usualIntervalMs([900_000, 910_000, 60_000, 905_000, 2_000])).toBe(900_000);
  });

  it('counts a file read in many chunks as one arrival: the gap is from the end of one file to the next', () => {
    const gaps = new ArrivalGaps();
    let now = 0;
    for (let file = 0; file < 4; file += 1) {
      // Chunks 300 ms and 1.5 s apart (a loaded machine): mid-file, none is a gap.
      for (let chunk = 0; chunk < 5; chunk += 1) {
        gaps.arrived(now, chunk > 0);
        now += chunk % 2 === 0 ? 300 : 1500;
      }
      now += 15 * 60_000;
    }
    expect(gaps.gaps).toHaveLength(3);
    expect(usualIntervalMs(gaps.gaps)).toBe(15 * 60_000 + 300);
  });

  it('drops commits closer than a second (one poll in several batches) and keeps the newest gaps only', () => {
    const gaps = new ArrivalGaps();
    for (let i = 0; i < 100; i += 1) {
      gaps.arrived(i * 5000, false);
      gaps.arrived(i * 5000 + 200, false);
    }
    expect(gaps.gaps).toHaveLength(KEPT_GAPS);
    expect(usualIntervalMs(gaps.gaps)).toBe(4800);
  });

  it('after a restart, learns from the minutes with records; the configuration wins over both', () => {
    expect(gapsOfMinutes([100, 115, 130, 146])).toEqual([900_000, 900_000, 960_000]);
    const history = () => gapsOfMinutes([100, 115, 130, 146]);
    expect(expectedInterval(undefined, [], history)).toEqual({ seconds: 900, from: 'history' });
    expect(expectedInterval(undefined, [4000, 5000, 5000], history)).toEqual({ seconds: 5, from: 'history' });
    expect(expectedInterval(60, [4000, 5000, 5000], history)).toEqual({ seconds: 60, from: 'configuration' });
    expect(expectedInterval(undefined, [], () => [])).toBeUndefined();
  });
});
