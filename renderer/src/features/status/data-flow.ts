/**
 * What the "Data flow" panel derives from streams, status, the configuration and the history: how
 * fresh each stream is, and the series of its sparkline and of each transmit's backlog chart.
 */
import type { FlowHistory } from '../../../../shared/api/history.js';

/** Default poll_interval of a receiver (shared/config/schema.ts). */
const DEFAULT_POLL_SECONDS = 5;
/** Amber once the newest record is older than this many poll intervals. */
const STALE_POLLS = 5;
/** Red once it is older than an hour. */
const DEAD_MS = 3_600_000;
const MINUTE_MS = 60_000;

export type Freshness = 'fresh' | 'stale' | 'dead' | 'none';

/** poll_interval in seconds per receiver name, from a configuration document (read defensively). */
export function pollIntervals(document: unknown): Map<string, number> {
  const out = new Map<string, number>();
  const receivers = (document as { data_receiver?: unknown } | undefined)?.data_receiver;
  for (const receiver of Array.isArray(receivers) ? receivers : []) {
    const r = receiver as { data_receiver_name?: unknown; poll_interval?: unknown };
    if (typeof r.data_receiver_name === 'string') out.set(r.data_receiver_name, typeof r.poll_interval === 'number' && r.poll_interval > 0 ? r.poll_interval : DEFAULT_POLL_SECONDS);
  }
  return out;
}

/**
 * How fresh a stream's newest record is: amber when older than 5 poll intervals, red after an
 * hour or when its receiver is not running; `none` when nothing was read since the agent started.
 */
export function freshness(lastRecordAt: string | null, now: number, pollSeconds: number, receiverRunning: boolean): Freshness {
  if (!receiverRunning) return 'dead';
  if (lastRecordAt === null) return 'none';
  const age = now - Date.parse(lastRecordAt);
  if (age > DEAD_MS) return 'dead';
  if (age > STALE_POLLS * pollSeconds * 1000) return 'stale';
  return 'fresh';
}

/** One value per minute of the window, oldest first (minutes without a point are 0). */
export function perMinute(points: readonly { minute: string }[], value: (index: number) => number, end: string, minutes: number): { times: number[]; values: number[] } {
  const last = Date.parse(end);
  const first = last - (minutes - 1) * MINUTE_MS;
  const times = Array.from({ length: minutes }, (_, i) => first + i * MINUTE_MS);
  const values = new Array<number>(minutes).fill(0);
  points.forEach((point, index) => {
    const slot = Math.round((Date.parse(point.minute) - first) / MINUTE_MS);
    if (slot >= 0 && slot < minutes) values[slot] = value(index);
  });
  return { times, values };
}

/** Records read per minute by one stream over the history's window. */
export function streamSeries(history: FlowHistory, receiver: string, asset: string, streamType: string, minutes: number) {
  const entry = history.streams.find((s) => s.data_receiver === receiver && s.asset === asset && s.stream_type === streamType);
  const points = entry?.points ?? [];
  return perMinute(points, (i) => points[i]!.records_in, history.end, minutes);
}

/** A transmit's backlog per minute: only the minutes the agent ran (no made-up zeros between). */
export function backlogSeries(history: FlowHistory, transmit: string): { times: number[]; values: number[] } {
  const points = history.transmits.find((t) => t.transmit === transmit)?.points ?? [];
  return { times: points.map((p) => Date.parse(p.minute)), values: points.map((p) => p.backlog_records) };
}

/** "about 3 min", "12 s", "2 h 5 min": how long draining the backlog takes at the recent rate. */
export function duration(seconds: number): string {
  if (seconds < 60) return `${Math.max(1, Math.round(seconds))} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
}

