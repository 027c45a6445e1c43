/** Milliseconds in a minute: the step of rates and of the flow history. */
export const MINUTE_MS = 60_000;
/** Rates are the mean over this many minutes (records_per_minute). */
export const RATE_MINUTES = 5;

/**
 * Counts per wall-clock minute for the last few minutes: one addition per batch, never per record.
 * Minutes are numbered since the epoch (Math.floor(ms / 60,000)).
 */
export class MinuteCounts {
  private readonly minutes: number[] = [];
  private readonly counts: number[] = [];

  constructor(
    /** Minutes kept: the rate window plus what the history recorder has not written yet. */
    private readonly keep = RATE_MINUTES + 5,
  ) {}

  add(count: number, nowMs: number): void {
    const minute = Math.floor(nowMs / MINUTE_MS);
    const last = this.minutes.length - 1;
    if (last >= 0 && this.minutes[last] === minute) {
      this.counts[last]! += count;
      return;
    }
    this.minutes.push(minute);
    this.counts.push(count);
    while (this.minutes.length > 0 && this.minutes[0]! <= minute - this.keep) {
      this.minutes.shift();
      this.counts.shift();
    }
  }

  /**
   * Mean per minute over the last RATE_MINUTES minutes (the current one included), or over the time
   * since `sinceMs` when that is shorter, but at least one minute: a stream that started 20 s ago
   * with 100 records shows 100/min, not 500/min.
   */
  perMinute(nowMs: number, sinceMs: number): number {
    const minute = Math.floor(nowMs / MINUTE_MS);
    let sum = 0;
    for (let i = this.minutes.length - 1; i >= 0 && this.minutes[i]! > minute - RATE_MINUTES; i--) sum += this.counts[i]!;
    const window = Math.min(RATE_MINUTES, Math.max(1, (nowMs - sinceMs) / MINUTE_MS));
    return Math.round((sum / window) * 10) / 10;
  }

  /** The counts of the minutes after `afterMinute` (oldest first). */
  since(afterMinute: number): { minute: number; count: number }[] {
    const out: { minute: number; count: number }[] = [];
    for (let i = 0; i < this.minutes.length; i++) if (this.minutes[i]! > afterMinute) out.push({ minute: this.minutes[i]!, count: this.counts[i]! });
    return out;
  }
}
