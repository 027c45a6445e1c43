import type Database from 'better-sqlite3';
import type { HistoryRecord } from '../../../shared/kpi/evaluate.js';
import type { AgentRecord, FieldValue } from '../../../shared/records/record.js';
import type { EncodedBatch } from '../components/contract.js';
import type { Clock } from '../time/clock.js';
import { isoToEpochMicros } from '../time/iso-time.js';

/**
 * A batch of one machine's records as a transmit's outbox codec stored it (a codec with
 * `keptByHistory`: compact, sorted by time or with its `span`): kept as it is, so that keeping records for KPIs costs
 * no encoding at all. Read back with the codec of its format.
 */
export interface EncodedHistoryBatch extends EncodedBatch {
  format: string;
  asset: string;
  stream_type: string;
}

export interface RecordHistoryOptions {
  clock: Clock;
  /** Records received longer ago than this are forgotten (default 7 days). */
  retentionMs: number;
  /** Upper bound of records kept, oldest received dropped first. */
  maxRecords: number;
  /** Reads a batch kept in a codec's format (the registry's decoding); needed only to read records back. */
  decode?: (format: string, payload: Buffer) => AgentRecord[];
}

/** Batches the history encoded itself: [timestamp in epoch microseconds, record_id, fieldvalues] as JSON. */
const OWN_FORMAT = 'json';

export const DEFAULT_RETENTION_MS = 7 * 24 * 3600 * 1000;
export const DEFAULT_MAX_RECORDS = 5_000_000;
const PRUNE_EVERY_MS = 10 * 60 * 1000;
/** Bounds of `knownData`: machines read, field names kept per machine. */
const KNOWN_MACHINES = 500;
const KNOWN_FIELDS = 2000;

/** A stored record: [timestamp in epoch microseconds, record_id, fieldvalues]. */
type StoredRecord = [number, string, Record<string, FieldValue>];

/**
 * Recent records, kept for KPI evaluation on this edge PC's own data. Fed by the pipeline (after
 * transforms), usually from a receiver's worker thread. Records are stored per committed batch (one
 * row per machine and batch, not per record: a row per record cost more than parsing it), with the
 * batch's time range for lookups: as the compressed upload body when the records go to an upload
 * anyway, else as JSON. A record is evaluated once by its record_id, so a restream does not count it
 * twice; a batch read again (same first and last record_id and count) replaces the stored one. Retention
 * runs on the time a record was received, not on its timestamp, so that a back-filled file can be
 * evaluated for as long as the retention lasts.
 */
export class RecordHistory {
  private readonly insertMany: (records: readonly AgentRecord[], received: number) => number;
  private readonly insertEncoded: (batches: readonly EncodedHistoryBatch[], received: number) => number;
  private readonly inOneTransaction: (work: () => unknown) => unknown;
  private readonly statements;
  private lastPrune = 0;

  constructor(
    private readonly db: Database.Database,
    private readonly options: RecordHistoryOptions,
  ) {
    this.statements = {
      insert: db.prepare(
        'INSERT OR REPLACE INTO history_batches (signature, asset, stream_type, ts_min, ts_max, received, count, format, records) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      ),
      pruneOld: db.prepare('DELETE FROM history_batches WHERE received < ?'),
      count: db.prepare('SELECT COALESCE(SUM(count), 0) AS n FROM history_batches'),
      oldest: db.prepare('SELECT id, count FROM history_batches ORDER BY received, id LIMIT 1000'),
      deleteBatch: db.prepare('DELETE FROM history_batches WHERE id = ?'),
      between: db.prepare('SELECT format, records FROM history_batches WHERE asset = ? AND ts_min < ? AND ts_max >= ? ORDER BY id'),
      machines: db.prepare('SELECT DISTINCT asset FROM history_batches WHERE ts_min < ? AND ts_max >= ? ORDER BY asset'),
      assets: db.prepare('SELECT DISTINCT asset FROM history_batches ORDER BY asset LIMIT ?'),
      latestOf: db.prepare('SELECT format, records FROM history_batches WHERE asset = ? ORDER BY ts_min DESC, id DESC LIMIT 1'),
    };
    this.insertEncoded = db.transaction((batches: readonly EncodedHistoryBatch[], received: number) => {
      const micros = isoToEpochMicros;
      let stored = 0;
      for (const batch of batches) {
        const min = batch.span ? batch.span.min : micros(batch.first.timestamp);
        const max = batch.span ? batch.span.max : micros(batch.last.timestamp);
        if (min === undefined || max === undefined) continue;
        const signature = signatureOf(batch.asset, batch.first.record_id, batch.last.record_id, batch.records);
        this.statements.insert.run(signature, batch.asset, batch.stream_type, Math.min(min, max), Math.max(min, max), received, batch.records, batch.format, batch.payload);
        stored += batch.records;
      }
      return stored;
    });
    this.inOneTransaction = db.transaction((work: () => unknown) => work());
    this.insertMany = db.transaction((records: readonly AgentRecord[], received: number) => {
      const byAsset = new Map<string, { stream_type: string; rows: StoredRecord[]; min: number; max: number }>();
      const micros = isoToEpochMicros;
      let stored = 0;
      for (const record of records) {
        const ts = micros(record.timestamp) ?? micros(record.capturetime);
        if (ts === undefined) continue;
        const id = record.record_id || `${record.asset}:${record.stream_type}:${record.timestamp}:${JSON.stringify(record.fieldvalues)}`;
        let batch = byAsset.get(record.asset);
        if (!batch) {
          batch = { stream_type: record.stream_type, rows: [], min: ts, max: ts };
          byAsset.set(record.asset, batch);
        }
        batch.rows.push([ts, id, record.fieldvalues]);
        if (ts < batch.min) batch.min = ts;
        if (ts > batch.max) batch.max = ts;
        stored += 1;
      }
      for (const [asset, batch] of byAsset) {
        const signature = signatureOf(asset, batch.rows[0]![1], batch.rows[batch.rows.length - 1]![1], batch.rows.length);
        this.statements.insert.run(signature, asset, batch.stream_type, batch.min, batch.max, received, batch.rows.length, OWN_FORMAT, JSON.stringify(batch.rows));
      }
      return stored;
    });
  }

  private nowMs(): number {
    return Number(this.options.clock.nowMicros() / 1000n);
  }

  /** Keeps a committed batch, received at `receivedMs` (default now). Returns how many records were stored. */
  remember(records: readonly AgentRecord[], receivedMs = this.nowMs()): number {
    const stored = this.insertMany(records, receivedMs);
    if (this.nowMs() - this.lastPrune >= PRUNE_EVERY_MS) this.prune();
    return stored;
  }

  /** Keeps committed outbox batches as they are. Returns how many records were stored. */
  rememberEncoded(batches: readonly EncodedHistoryBatch[], receivedMs = this.nowMs()): number {
    const stored = this.insertEncoded(batches, receivedMs);
    if (this.nowMs() - this.lastPrune >= PRUNE_EVERY_MS) this.prune();
    return stored;
  }

  /**
   * Runs `work` (calls of remember and rememberEncoded) in one transaction: the batches of several
   * machines committed together (an OPC UA publish) are written once, not once a machine.
   */
  together<T>(work: () => T): T {
    return this.inOneTransaction(work) as T;
  }

  /** Forgets what is older than the retention, and the oldest beyond the record limit. */
  prune(): void {
    const now = this.nowMs();
    this.lastPrune = now;
    this.statements.pruneOld.run(now - this.options.retentionMs);
    let excess = this.count() - this.options.maxRecords;
    while (excess > 0) {
      const oldest = this.statements.oldest.all() as { id: number; count: number }[];
      if (oldest.length === 0) break;
      for (const batch of oldest) {
        if (excess <= 0) break;
        this.statements.deleteBatch.run(batch.id);
        excess -= batch.count;
      }
    }
  }

  /** Records kept (a record stored again in a different batch counts twice here, never in evaluation). */
  count(): number {
    return (this.statements.count.get() as { n: number }).n;
  }

  /** Records of one machine with start <= timestamp < end (epoch microseconds), at most `limit`, by time. */
  recordsOf(machine: string, start: number, end: number, limit: number): HistoryRecord[] {
    const byId = new Map<string, HistoryRecord>();
    for (const row of this.statements.between.iterate(machine, Math.ceil(end), Math.floor(start)) as IterableIterator<{ format: string; records: string | Buffer }>) {
      for (const [timestamp, id, fieldvalues] of this.storedRecords(row.format, row.records)) {
        if (timestamp < start || timestamp >= end) continue;
        // The latest reading of a record wins (as a restream replaces what was read before).
        byId.delete(id);
        byId.set(id, { timestamp, fieldvalues });
      }
      if (byId.size > limit) break;
    }
    return [...byId.values()].slice(0, limit).sort((a, b) => a.timestamp - b.timestamp);
  }

  private storedRecords(format: string, records: string | Buffer): StoredRecord[] {
    if (format === OWN_FORMAT) return JSON.parse(records as string) as StoredRecord[];
    if (!this.options.decode) throw new Error(`Records kept in the format "${format}" cannot be read here.`);
    const out: StoredRecord[] = [];
    for (const record of this.options.decode(format, records as Buffer)) {
      const timestamp = isoToEpochMicros(record.timestamp);
      if (timestamp !== undefined) out.push([timestamp, record.record_id, record.fieldvalues]);
    }
    return out;
  }

  /**
   * The machines with kept records and the field names of each one's newest batch (for did-you-mean
   * on a KPI's machine and field names). Bounded: at most `maxMachines` machines, one batch each.
   */
  knownData(maxMachines = KNOWN_MACHINES): Record<string, string[]> {
    const out: Record<string, string[]> = {};
    for (const { asset } of this.statements.assets.all(maxMachines) as { asset: string }[]) {
      const row = this.statements.latestOf.get(asset) as { format: string; records: string | Buffer } | undefined;
      const fields = new Set<string>();
      try {
        if (row) for (const [, , fieldvalues] of this.storedRecords(row.format, row.records)) for (const field of Object.keys(fieldvalues)) if (fields.size < KNOWN_FIELDS) fields.add(field);
      } catch {
        // A batch that cannot be read back only means its fields are not known: no hints, no failure.
      }
      out[asset] = [...fields];
    }
    return out;
  }

  /** Machines (assets) with records between start and end. */
  machinesBetween(start: number, end: number): string[] {
    return (this.statements.machines.all(Math.ceil(end), Math.floor(start)) as { asset: string }[]).map((row) => row.asset);
  }
}

/** Identity of a batch: read again (a restream, a replay after a crash), it replaces itself. */
function signatureOf(asset: string, firstId: string, lastId: string, count: number): string {
  return `${asset}\0${firstId}\0${lastId}\0${count}`;
}
