/**
 * The usual interval of a stream: how often its records usually arrive, in wall time. Learned from
 * the times of its commits: commits less than BURST_MS apart are one arrival (the chunks of one
 * file, the machines of one OPC UA publish), the usual interval is the median of the last SAMPLES
 * intervals between arrivals. The default gap check waits 10 times this, at least 5 minutes.
 *
 * Self-contained on purpose: Status's amber/red for a stream that has gone quiet (issue 38) learns
 * the same thing, and the two may become one module (docs/decisions/0042-data-quality-watch.md).
 */

/** Commits closer than this are one arrival. */
export const BURST_MS = 1_000;
/** Intervals kept per stream. */
const SAMPLES = 16;
/** Intervals needed before the interval counts as known. */
export const MIN_SAMPLES = 3;

export class UsualInterval {
  private readonly samples: number[] = [];
  private next = 0;
  private lastArrival: number | undefined;
  private lastCommit: number | undefined;

  /** A commit with records at wall time `nowMs`. */
  arrived(nowMs: number): void {
    const burst = this.lastCommit !== undefined && nowMs - this.lastCommit < BURST_MS;
    this.lastCommit = nowMs;
    if (burst) return;
    if (this.lastArrival !== undefined && nowMs > this.lastArrival) {
      const interval = nowMs - this.lastArrival;
      if (this.samples.length < SAMPLES) this.samples.push(interval);
      else this.samples[this.next] = interval;
      this.next = (this.next + 1) % SAMPLES;
    }
    this.lastArrival = nowMs;
  }

  /** The median interval between arrivals in ms, or undefined until MIN_SAMPLES were seen. */
  usualMs(): number | undefined {
    if (this.samples.length < MIN_SAMPLES) return undefined;
    const sorted = [...this.samples].sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)];
  }
}

/** The default gap: 10 times the usual interval, at least 5 minutes; undefined while it is not known. */
export function usualGapMs(interval: UsualInterval): number | undefined {
  const usual = interval.usualMs();
  return usual === undefined ? undefined : Math.max(10 * usual, 5 * 60_000);
}
