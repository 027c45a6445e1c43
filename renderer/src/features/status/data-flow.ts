/**
 * What the "Data flow" panel derives from streams, status, the configuration and the history: how
 * fresh each stream is, and the series of its sparkline and of each transmit's backlog chart.
 */
import type { FlowHistory } from '../../../../shared/api/history.js';
import type { Status, StreamStats } from '../../../../shared/api/resources.js';
import { formatNumber } from '../../format/locale.js';
import { stateWord } from '../../components/state-badge.js';
import { text } from '../../i18n/language.js';

/** Default poll_interval of a receiver (shared/config/schema.ts). */
const DEFAULT_POLL_SECONDS = 5;
/** Without an expected interval: amber once the newest record is older than this many poll intervals. */
const STALE_POLLS = 5;
/** Without an expected interval: red once it is older than an hour. */
const DEAD_MS = 3_600_000;
/** With one: amber after this many expected intervals without a record (plus one poll: the receiver looks only that often). */
export const LATE_FACTOR = 1.5;
/** With one: red after this many. */
export const SILENT_FACTOR = 6;
/** Records waiting longer than this at a transmit without an error are not getting out either. */
const STUCK_MS = 5 * 60_000;
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
 * How fresh a stream's newest record is, judged by the interval it is expected to arrive at (its
 * expected_every_seconds, or learned by the agent): amber after 1.5 intervals and a poll, red after
 * 6 or when its receiver is not running. While no interval is known: amber after 5 poll intervals,
 * red after an hour. `none` when nothing was ever read.
 */
export function freshness(lastRecordAt: string | null, now: number, pollSeconds: number, receiverRunning: boolean, expectedSeconds: number | null = null): Freshness {
  if (!receiverRunning) return 'dead';
  if (lastRecordAt === null) return 'none';
  const age = now - Date.parse(lastRecordAt);
  const [late, silent] = expectedSeconds === null ? [STALE_POLLS * pollSeconds * 1000, DEAD_MS] : [(LATE_FACTOR * expectedSeconds + pollSeconds) * 1000, (SILENT_FACTOR * expectedSeconds + pollSeconds) * 1000];
  if (age > silent) return 'dead';
  if (age > late) return 'stale';
  return 'fresh';
}

/** A transmit that holds a stream's records and is not getting them out, and why. */
export interface DeliveryProblem {
  transmit: string;
  waiting: number;
  reason: string;
}

/**
 * Read but not getting out: a transmit of this stream has its records waiting and its last delivery
 * failed (its error is the reason), its service reports a problem, or the oldest has waited over 5
 * minutes. The first such transmit, or undefined when all deliver.
 */
export function deliveryProblem(delivery: StreamStats['transmits'], transmits: Status['last_data_transmit'], services: Status['agent']['services'], now: number): DeliveryProblem | undefined {
  for (const [transmit, { waiting, oldest_waiting_at }] of Object.entries(delivery)) {
    if (waiting === 0) continue;
    const error = transmits[transmit]?.last_error ?? services[`transmit:${transmit}`]?.reason ?? null;
    const service = services[`transmit:${transmit}`]?.status;
    const waited = oldest_waiting_at === null ? 0 : now - Date.parse(oldest_waiting_at);
    if (error !== null) return { transmit, waiting, reason: error };
    if (service !== undefined && service !== 'running') return { transmit, waiting, reason: text('dataFlow.transmitState', { state: stateWord(service) }) };
    if (waited > STUCK_MS) return { transmit, waiting, reason: `its oldest record has waited ${duration(waited / 1000)}` };
  }
  return undefined;
}

/**
 * One value per minute of the window, oldest first. A minute without a point is 0 when the agent ran
 * then (`ran`), and null (a gap: nothing is known) when it did not; without `ran`, 0.
 */
export function perMinute(points: readonly { minute: string }[], value: (index: number) => number, end: string, minutes: number, ran?: ReadonlySet<number>): { times: number[]; values: (number | null)[] } {
  const last = Date.parse(end);
  const first = last - (minutes - 1) * MINUTE_MS;
  const times = Array.from({ length: minutes }, (_, i) => first + i * MINUTE_MS);
  const values: (number | null)[] = times.map((time) => (ran && !ran.has(time) ? null : 0));
  points.forEach((point, index) => {
    const slot = Math.round((Date.parse(point.minute) - first) / MINUTE_MS);
    if (slot >= 0 && slot < minutes) values[slot] = value(index);
  });
  return { times, values };
}

/**
 * The minutes the agent ran, as far as the history tells: each minute some stream read records or
 * some transmit recorded its backlog (a transmit does every minute the agent runs).
 */
export function minutesRan(history: FlowHistory): Set<number> {
  const ran = new Set<number>();
  for (const entry of [...history.streams, ...history.transmits]) for (const point of entry.points) ran.add(Date.parse(point.minute));
  return ran;
}

/** Records read per minute by one stream over the history's window; null where the agent did not run. */
export function streamSeries(history: FlowHistory, receiver: string, asset: string, streamType: string, minutes: number) {
  const entry = history.streams.find((s) => s.data_receiver === receiver && s.asset === asset && s.stream_type === streamType);
  const points = entry?.points ?? [];
  return perMinute(points, (i) => points[i]!.records_in, history.end, minutes, minutesRan(history));
}

/**
 * A transmit's backlog per minute the agent ran; a null after a point whose next minute has none, so
 * that the chart leaves the time the agent did not run as a gap instead of drawing a line across it.
 */
export function backlogSeries(history: FlowHistory, transmit: string): { times: number[]; values: (number | null)[] } {
  const points = history.transmits.find((t) => t.transmit === transmit)?.points ?? [];
  const times: number[] = [];
  const values: (number | null)[] = [];
  points.forEach((point, i) => {
    const minute = Date.parse(point.minute);
    times.push(minute);
    values.push(point.backlog_records);
    const next = points[i + 1];
    if (next && Date.parse(next.minute) - minute > MINUTE_MS) {
      times.push(minute + MINUTE_MS);
      values.push(null);
    }
  });
  return { times, values };
}

/** "about 3 min", "12 s", "2 h 5 min": how long draining the backlog takes at the recent rate. */
export function duration(seconds: number): string {
  if (seconds < 60) return `${Math.max(1, Math.round(seconds))} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
}


/**
 * records/min as shown: a whole number (the agent's 5-minute mean has a decimal that reads as noise),
 * and 0 while the receiver is not running (the mean would otherwise linger for 5 minutes after a stop).
 */
export function shownRate(perMinute: number, receiverRunning: boolean): string {
  return receiverRunning ? formatNumber(Math.round(perMinute)) : '0';
}
