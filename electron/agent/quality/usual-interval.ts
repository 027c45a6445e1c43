/**
 * The usual interval of a stream for the data-quality `gap` check. The computation is the one
 * Status uses to call a stream late or silent (quality/arrival-gaps.ts, decision 0045): commits less
 * than BURST_MS apart are one arrival, the usual interval is the median of the recent gaps between
 * arrivals, and it is known after MIN_GAPS of them. One notion of "usual" for both (issue 38,
 * point 3); the default gap check waits 10 times it, at least 5 minutes.
 */
import { ArrivalGaps, usualIntervalMs } from './arrival-gaps.js';

export { BURST_MS, MIN_GAPS as MIN_SAMPLES } from './arrival-gaps.js';

export class UsualInterval {
  private readonly arrivals = new ArrivalGaps();

  /** A commit with records at wall time `nowMs`. */
  arrived(nowMs: number): void {
    this.arrivals.arrived(nowMs, false);
  }

  /** The median interval between arrivals in ms, or undefined until MIN_SAMPLES were seen. */
  usualMs(): number | undefined {
    return usualIntervalMs(this.arrivals.gaps);
  }
}

/** The default gap: 10 times the usual interval, at least 5 minutes; undefined while it is not known. */
export function usualGapMs(interval: UsualInterval): number | undefined {
  const usual = interval.usualMs();
  return usual === undefined ? undefined : Math.max(10 * usual, 5 * 60_000);
}
