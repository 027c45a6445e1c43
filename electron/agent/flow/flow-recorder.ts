import { type FlowHistory, HISTORY_MINUTES } from '../../../shared/api/history.js';
import type { Logger } from '../logging/logger.js';
import type { TransmitStatsBoard } from './transmit-stats.js';
import type { FlowHistoryStore, StreamMinute, TransmitMinute } from '../store/flow-history-store.js';
import { MINUTE_MS } from './minute-counts.js';
import type { StreamFlowBoard } from './stream-flow.js';
import { DisposableStore } from '../lifecycle/index.js';

export interface FlowRecorderOptions {
  store: FlowHistoryStore;
  flow: StreamFlowBoard;
  transmits: TransmitStatsBoard;
  /** Records waiting in a transmit's outbox now (undefined when the outbox cannot be read). */
  backlog: (transmit: string) => number | undefined;
  logger: Logger;
}

/** Seconds after a minute ends at which it is written: late batches of that minute are in by then. */
const WRITE_DELAY_MS = 2_000;

const iso = (minute: number) => new Date(minute * MINUTE_MS).toISOString();

/**
 * Writes the per-minute flow to the history database once a minute (each minute once, when it is
 * over; the current one when the agent shuts down), prunes what is older than 24 hours, and answers
 * GET /v1/history from the database plus the minutes not written yet.
 */
export class FlowRecorder {
  /** The minute timer while the recorder runs. */
  private running: DisposableStore | undefined;
  /** The newest minute written by this process: later ones are still only in memory. */
  private written = Number.NEGATIVE_INFINITY;
  private failed = false;

  constructor(private readonly options: FlowRecorderOptions) {}

  start(): void {
    if (this.running) return;
    const running = new DisposableStore();
    this.running = running;
    const schedule = () => {
      const now = this.options.flow.nowMs();
      const next = (Math.floor(now / MINUTE_MS) + 1) * MINUTE_MS + WRITE_DELAY_MS;
      running.setTimeout(() => {
        this.record(Math.floor(this.options.flow.nowMs() / MINUTE_MS) - 1);
        schedule();
      }, next - now);
    };
    schedule();
  }

  /** Stops the timer and writes what is not written yet, the current minute included. Idempotent. */
  stop(): void {
    this.running?.dispose();
    this.running = undefined;
    this.record(Math.floor(this.options.flow.nowMs() / MINUTE_MS));
    this.options.store.close();
  }

  /** The last `minutes` minutes (the current one included). */
  history(minutes: number): FlowHistory {
    const current = Math.floor(this.options.flow.nowMs() / MINUTE_MS);
    const from = current - minutes + 1;
    let stored: { streams: StreamMinute[]; transmits: TransmitMinute[] } = { streams: [], transmits: [] };
    try {
      stored = this.options.store.read(from);
    } catch (cause) {
      this.options.logger.error(`The flow history could not be read (charts show this run only): ${(cause as Error).message}`);
    }
    const pending = this.pending(current);
    return {
      start: iso(from),
      end: iso(current),
      streams: groupStreams([...stored.streams, ...pending.streams]),
      transmits: groupTransmits([...stored.transmits, ...pending.transmits]),
      quality: [],
    };
  }

  /** Writes the minutes up to `through` not written yet; a failure is logged once, and those minutes are kept for the next try. */
  private record(through: number): void {
    if (through <= this.written) return;
    const { streams, transmits } = this.pending(through);
    try {
      this.options.store.write(streams, transmits, through - HISTORY_MINUTES + 1);
      this.written = through;
      if (this.failed) this.options.logger.info('The flow history is written again.');
      this.failed = false;
    } catch (cause) {
      if (!this.failed) this.options.logger.error(`The flow history could not be written (the data flow is not affected): ${(cause as Error).message}`);
      this.failed = true;
    }
  }

  /** Minutes after the last written one, up to `through`; the backlog is now's, for the newest minute. */
  private pending(through: number): { streams: StreamMinute[]; transmits: TransmitMinute[] } {
    const streams: StreamMinute[] = [];
    for (const flow of this.options.flow.all())
      for (const { minute, count } of flow.minutes.since(this.written))
        if (minute <= through) streams.push({ minute, receiver: flow.receiver, asset: flow.asset, stream_type: flow.stream_type, records: count });
    const transmits: TransmitMinute[] = [];
    for (const transmit of this.options.transmits.names()) {
      const sent = this.options.transmits.sentSince(transmit, this.written).filter((m) => m.minute < through);
      for (const { minute, count } of sent) transmits.push({ minute, transmit, records_out: count, backlog_records: 0 });
      const last = this.options.transmits.sentSince(transmit, through - 1).find((m) => m.minute === through);
      const backlog = this.options.backlog(transmit);
      if (backlog !== undefined || last) transmits.push({ minute: through, transmit, records_out: last?.count ?? 0, backlog_records: backlog ?? 0 });
    }
    return { streams, transmits };
  }
}

function groupStreams(rows: readonly StreamMinute[]): FlowHistory['streams'] {
  const out = new Map<string, FlowHistory['streams'][number] & { sums: Map<number, number> }>();
  for (const row of rows) {
    const key = `${row.receiver}\0${row.asset}\0${row.stream_type}`;
    let entry = out.get(key);
    if (!entry) out.set(key, (entry = { data_receiver: row.receiver, asset: row.asset, stream_type: row.stream_type, points: [], sums: new Map() }));
    entry.sums.set(row.minute, (entry.sums.get(row.minute) ?? 0) + row.records);
  }
  return [...out.values()].map(({ sums, ...entry }) => ({
    ...entry,
    points: [...sums].sort((a, b) => a[0] - b[0]).map(([minute, records]) => ({ minute: iso(minute), records_in: records })),
  }));
}

function groupTransmits(rows: readonly TransmitMinute[]): FlowHistory['transmits'] {
  const out = new Map<string, Map<number, { out: number; backlog: number }>>();
  for (const row of rows) {
    let minutes = out.get(row.transmit);
    if (!minutes) out.set(row.transmit, (minutes = new Map()));
    const seen = minutes.get(row.minute);
    // Stored and pending rows of one minute: deliveries add up, the later backlog wins.
    minutes.set(row.minute, { out: (seen?.out ?? 0) + row.records_out, backlog: row.backlog_records });
  }
  return [...out].map(([transmit, minutes]) => ({
    transmit,
    points: [...minutes].sort((a, b) => a[0] - b[0]).map(([minute, v]) => ({ minute: iso(minute), records_out: v.out, backlog_records: v.backlog })),
  }));
}
