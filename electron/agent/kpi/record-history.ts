import type Database from 'better-sqlite3';
import { parseTimestampToMicros } from '../../../shared/api/envelope.js';
import type { HistoryRecord } from '../../../shared/kpi/evaluate.js';
import type { AgentRecord } from '../../../shared/records/record.js';
import type { Clock } from '../clock.js';

export interface RecordHistoryOptions {
  clock: Clock;
  /** Records received longer ago than this are forgotten (default 7 days). */
  retentionMs: number;
  /** Upper bound of records kept, oldest received dropped first. */
  maxRecords: number;
}

export const DEFAULT_RETENTION_MS = 7 * 24 * 3600 * 1000;
export const DEFAULT_MAX_RECORDS = 5_000_000;
const PRUNE_EVERY_MS = 10 * 60 * 1000;

/**
 * Recent records, kept for KPI evaluation on this edge PC's own data. Fed by the pipeline's record
 * tap (after transforms). A record is stored once by its record_id, so a restream does not count
 * it twice. Retention runs on the time a record was received, not on its timestamp, so that a
 * back-filled file can be evaluated for as long as the retention lasts.
 */
export class RecordHistory {
  private readonly insertMany: (records: readonly AgentRecord[], received: number) => number;
  private readonly statements;
  private lastPrune = 0;

  constructor(
    private readonly db: Database.Database,
    private readonly options: RecordHistoryOptions,
  ) {
    this.statements = {
      insert: db.prepare('INSERT OR REPLACE INTO record_history (record_id, asset, stream_type, ts, received, fields) VALUES (?, ?, ?, ?, ?, ?)'),
      pruneOld: db.prepare('DELETE FROM record_history WHERE received < ?'),
      count: db.prepare('SELECT COUNT(*) AS n FROM record_history'),
      pruneExcess: db.prepare('DELETE FROM record_history WHERE record_id IN (SELECT record_id FROM record_history ORDER BY received LIMIT ?)'),
      between: db.prepare('SELECT ts, fields FROM record_history WHERE asset = ? AND ts >= ? AND ts < ? LIMIT ?'),
      machines: db.prepare('SELECT DISTINCT asset FROM record_history WHERE ts >= ? AND ts < ? ORDER BY asset'),
    };
    this.insertMany = db.transaction((records: readonly AgentRecord[], received: number) => {
      let stored = 0;
      for (const record of records) {
        const micros = parseTimestampToMicros(record.timestamp) ?? parseTimestampToMicros(record.capturetime);
        if (micros === undefined) continue;
        const id = record.record_id || `${record.asset}:${record.stream_type}:${record.timestamp}:${JSON.stringify(record.fieldvalues)}`;
        this.statements.insert.run(id, record.asset, record.stream_type, Number(micros), received, JSON.stringify(record.fieldvalues));
        stored += 1;
      }
      return stored;
    });
  }

  private nowMs(): number {
    return Number(this.options.clock.nowMicros() / 1000n);
  }

  /** Keeps a committed batch. Returns how many records were stored. */
  remember(records: readonly AgentRecord[]): number {
    const now = this.nowMs();
    const stored = this.insertMany(records, now);
    if (now - this.lastPrune >= PRUNE_EVERY_MS) this.prune();
    return stored;
  }

  /** Forgets what is older than the retention, and the oldest beyond the record limit. */
  prune(): void {
    const now = this.nowMs();
    this.lastPrune = now;
    this.statements.pruneOld.run(now - this.options.retentionMs);
    const { n } = this.statements.count.get() as { n: number };
    if (n > this.options.maxRecords) this.statements.pruneExcess.run(n - this.options.maxRecords);
  }

  count(): number {
    return (this.statements.count.get() as { n: number }).n;
  }

  /** Records of one machine with start <= timestamp < end (epoch microseconds), at most `limit`. */
  recordsOf(machine: string, start: number, end: number, limit: number): HistoryRecord[] {
    const rows = this.statements.between.all(machine, Math.floor(start), Math.ceil(end), limit) as { ts: number; fields: string }[];
    return rows.map((row) => ({ timestamp: row.ts, fieldvalues: JSON.parse(row.fields) as HistoryRecord['fieldvalues'] }));
  }

  /** Machines (assets) with records between start and end. */
  machinesBetween(start: number, end: number): string[] {
    return (this.statements.machines.all(Math.floor(start), Math.ceil(end)) as { asset: string }[]).map((row) => row.asset);
  }
}
