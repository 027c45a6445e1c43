/**
 * The usual interval of a stream: how long it normally goes between two arrivals of data. Drives
 * when the console calls a stream late (amber) or silent (red), instead of a fixed number of poll
 * intervals that an idle file-drop stream passes every time (docs/decisions/0045).
 *
 * One place on purpose: the data-quality `gap` check needs the same notion of "usual", and the
 * two should be one computation.
 */

/** Commits closer together than this are one arrival (the batches of one SQL poll, an OPC UA publish). */
export const BURST_MS = 1_000;
/** Recent gaps kept per stream: about a day of a stream that arrives hourly. */
export const KEPT_GAPS = 24;
/** Fewer gaps than this say nothing about a stream yet. */
export const MIN_GAPS = 3;

/**
 * The usual gap (ms) among recent ones: their median, so that one outage or one burst does not move
 * it; undefined while there are fewer than MIN_GAPS.
 */
export function usualIntervalMs(gapsMs: readonly number[]): number | undefined {
  if (gapsMs.length < MIN_GAPS) return undefined;
  const sorted = [...gapsMs].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * Gaps between the minutes in which a stream read records (the per-minute history, oldest first):
 * what is known of a stream after a restart, at a minute's resolution. A stream with records in
 * every minute gives gaps of one minute.
 */
export function gapsOfMinutes(minutes: readonly number[], minuteMs = 60_000): number[] {
  const gaps: number[] = [];
  for (let i = 1; i < minutes.length; i += 1) gaps.push((minutes[i]! - minutes[i - 1]!) * minuteMs);
  return gaps.slice(-KEPT_GAPS);
}

/**
 * The gaps between a stream's arrivals, fed once per committed batch. The chunks of one file are one
 * arrival however long the file takes to read (`inFile`): the gap that counts is the one from the end
 * of a file to the next data.
 */
export class ArrivalGaps {
  private lastCommitMs: number | undefined;
  readonly gaps: number[] = [];

  /** A batch was committed at `nowMs`; `midFile`: the previous batch was a chunk of a file still being read. */
  arrived(nowMs: number, midFile: boolean): void {
    const gap = this.lastCommitMs === undefined ? undefined : nowMs - this.lastCommitMs;
    this.lastCommitMs = nowMs;
    if (gap === undefined || midFile || gap < BURST_MS) return;
    this.gaps.push(gap);
    if (this.gaps.length > KEPT_GAPS) this.gaps.shift();
  }
}

/** What a stream is expected to do, and where that expectation comes from. */
export interface Expectation {
  seconds: number;
  from: 'configuration' | 'history';
}

/**
 * The interval a stream is judged by: `expected_every_seconds` of its configuration when set, else
 * what its own arrivals since the start say, else its per-minute history (after a restart).
 */
export function expectedInterval(configuredSeconds: number | undefined, liveGaps: readonly number[], historyGaps: () => readonly number[]): Expectation | undefined {
  if (configuredSeconds !== undefined) return { seconds: configuredSeconds, from: 'configuration' };
  const learned = usualIntervalMs(liveGaps) ?? usualIntervalMs(historyGaps());
  return learned === undefined ? undefined : { seconds: Math.round(learned / 100) / 10, from: 'history' };
}
