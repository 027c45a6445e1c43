import type { TransmitStats } from '../../../shared/api/resources.js';
import type { AgentMessage } from '../../../shared/config/message.js';
import { MINUTE_MS, MinuteCounts } from './minute-counts.js';
import type { AgentStore } from '../store/agent-store.js';

export type { TransmitStats };

interface Entry {
  transmit_type: string;
  last_success: string | null;
  records_sent: number;
  bytes_sent: number;
  last_error: string | null;
  /** last_error with its code, when the transmit said one (issue 57). */
  said?: AgentMessage;
  last_error_at: string | null;
  upload_errors: number;
  /** Records delivered per minute (rate, history). */
  readonly sent: MinuteCounts;
  /** detail(): what the transmit says about itself. */
  details?: Record<string, unknown>;
  /** Keeps bytes sent and upload errors across restarts (the store); a failure to keep them is not the delivery's. */
  keep?: (bytes: number, errors: number) => void;
}

/** What a transmit delivered before this process: records (from the outbox's counts), bytes and upload errors. */
export interface TransmitTotals {
  records: number;
  bytes: number;
  errors: number;
}

/**
 * What each transmit reports about its deliveries, read by GET /v1/status, GET /metrics and the
 * history.
 */
export class TransmitStatsBoard {
  private readonly entries = new Map<string, Entry>();
  private readonly startedMs = Date.now();

  /**
   * A transmit of the configuration: its counts go on across saves, unless its type changed.
   * `before`: what it delivered before (the store keeps records, bytes and upload errors), so that
   * records_sent, bytes_sent and upload_errors survive a restart (issue 56); `keep` adds to what the
   * store keeps. Rates, last success and last error start with the process.
   */
  register(name: string, type: string, before: () => number | TransmitTotals = () => 0, keep?: (bytes: number, errors: number) => void): void {
    if (this.entries.get(name)?.transmit_type !== type) {
      let totals: TransmitTotals = { records: 0, bytes: 0, errors: 0 };
      try {
        const found = before();
        totals = typeof found === 'number' ? { ...totals, records: found } : found;
      } catch {
        // A store that cannot be read (full disk at start): count from zero rather than fail the
        // start.
      }
      this.entries.set(name, {
        transmit_type: type,
        last_success: null,
        records_sent: totals.records,
        bytes_sent: totals.bytes,
        last_error: null,
        last_error_at: null,
        upload_errors: totals.errors,
        sent: new MinuteCounts(),
        keep,
      });
    }
  }

  /** One delivery (a batch): counted once, whatever its number of records. */
  success(name: string, records: number, bytes: number): void {
    const entry = this.entries.get(name);
    if (!entry) return;
    const now = Date.now();
    entry.last_success = new Date(now).toISOString();
    entry.records_sent += records;
    entry.bytes_sent += bytes;
    entry.last_error = null;
    entry.said = undefined;
    entry.sent.add(records, now);
    keepTotals(entry, bytes, 0);
  }

  /**
   * What a transmit says about its own state beyond deliveries (an mqtt transmit's Sparkplug node:
   * `sparkplug`), shown with its stats; undefined removes it.
   */
  detail(name: string, key: string, value: unknown): void {
    const entry = this.entries.get(name);
    if (!entry) return;
    entry.details ??= {};
    if (value === undefined) delete entry.details[key];
    else entry.details[key] = value;
  }

  failure(name: string, said: string | AgentMessage): void {
    const entry = this.entries.get(name);
    if (!entry) return;
    entry.last_error = typeof said === 'string' ? said : said.text;
    entry.said = typeof said === 'string' ? undefined : said;
    entry.last_error_at = new Date().toISOString();
    entry.upload_errors += 1;
    keepTotals(entry, 0, 1);
  }

  /** Keeps only the transmits of the current configuration. */
  retain(names: readonly string[]): void {
    for (const name of this.entries.keys()) if (!names.includes(name)) this.entries.delete(name);
  }

  /** The transmits of the configuration. */
  names(): string[] {
    return [...this.entries.keys()];
  }

  /** Records delivered per minute of the minutes after `afterMinute` (history). */
  sentSince(name: string, afterMinute: number): { minute: number; count: number }[] {
    return this.entries.get(name)?.sent.since(afterMinute) ?? [];
  }

  snapshot(store: AgentStore | undefined, nowMs = Date.now()): Record<string, TransmitStats> {
    const out: Record<string, TransmitStats> = {};
    for (const [name, { sent, details, keep: _keep, said, ...entry }] of this.entries) {
      const backlog = store?.backlog(name) ?? { records: 0, bytes: 0 };
      const oldest = backlog.records > 0 ? store?.oldestQueuedAt(name) : undefined;
      const records_per_minute = sent.perMinute(nowMs, this.startedMs);
      out[name] = {
        ...entry,
        ...(said && entry.last_error !== null ? { last_error_code: said.code, last_error_params: said.params } : {}),
        backlog_records: backlog.records,
        backlog_bytes: backlog.bytes,
        records_per_minute,
        lag_seconds:
          oldest === undefined ? null : Math.max(0, Math.round((nowMs - oldest) / 100) / 10),
        drain_seconds: drainSeconds(backlog.records, records_per_minute),
        ...details,
      };
    }
    return out;
  }
}

function keepTotals(entry: Entry, bytes: number, errors: number): void {
  try {
    entry.keep?.(bytes, errors);
  } catch {
    // A store that cannot be written (full disk): the count in memory goes on; status shows the disk.
  }
}

/**
 * Time to deliver the backlog at the recent rate; unknown (null) when nothing was delivered lately.
 */
function drainSeconds(backlog: number, perMinute: number): number | null {
  if (backlog === 0) return 0;
  if (perMinute <= 0) return null;
  return Math.ceil((backlog / perMinute) * (MINUTE_MS / 1000));
}
