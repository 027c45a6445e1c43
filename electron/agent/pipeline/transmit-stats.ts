import type { AgentStore } from '../store/agent-store.js';

/** One entry of status.last_data_transmit. */
export interface TransmitStats {
  transmit_type: string;
  last_success: string | null;
  records_sent: number;
  bytes_sent: number;
  backlog_records: number;
  backlog_bytes: number;
  last_error: string | null;
  last_error_at: string | null;
}

/** What each transmit reports about its deliveries, read by GET /v1/status. */
export class TransmitStatsBoard {
  private readonly entries = new Map<string, Omit<TransmitStats, 'backlog_records' | 'backlog_bytes'>>();

  /** A transmit of the configuration: its counts go on across saves, unless its type changed. */
  register(name: string, type: string): void {
    if (this.entries.get(name)?.transmit_type !== type)
      this.entries.set(name, { transmit_type: type, last_success: null, records_sent: 0, bytes_sent: 0, last_error: null, last_error_at: null });
  }

  success(name: string, records: number, bytes: number): void {
    const entry = this.entries.get(name);
    if (!entry) return;
    entry.last_success = new Date().toISOString();
    entry.records_sent += records;
    entry.bytes_sent += bytes;
    entry.last_error = null;
  }

  failure(name: string, message: string): void {
    const entry = this.entries.get(name);
    if (!entry) return;
    entry.last_error = message;
    entry.last_error_at = new Date().toISOString();
  }

  /** Keeps only the transmits of the current configuration. */
  retain(names: readonly string[]): void {
    for (const name of this.entries.keys()) if (!names.includes(name)) this.entries.delete(name);
  }

  snapshot(store: AgentStore | undefined): Record<string, TransmitStats> {
    const out: Record<string, TransmitStats> = {};
    for (const [name, entry] of this.entries) {
      const backlog = store?.backlog(name) ?? { records: 0, bytes: 0 };
      out[name] = { ...entry, backlog_records: backlog.records, backlog_bytes: backlog.bytes };
    }
    return out;
  }
}
