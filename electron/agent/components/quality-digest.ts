/**
 * What the data-quality checks need from one committed batch, made where the records are in hand
 * (the commit path on the main thread and in the parse threads, the fused path of plain CSV chunks)
 * and sent with the commit's outcome to the main thread, where QualityWatch judges it. A few numbers
 * per watched field, whatever the batch's size: the runs of equal values at its start and end and
 * the longest one inside, how many values were out of range, the columns, the record times' span.
 */
import type { QualitySettings } from '../../../shared/config/data-quality-rules.js';
import type { AgentRecord, FieldValue } from '../../../shared/records/record.js';

/** A run of one value in a row, in record time (epoch ms). */
export interface ValueRun {
  value: number;
  count: number;
  from: number;
  to: number;
}

export interface FieldDigest {
  /** The run the batch starts with, and the one it ends with (the same when `whole`). */
  lead?: ValueRun;
  trail?: ValueRun;
  whole?: boolean;
  /** The longest run that started and ended inside the batch. */
  longest?: ValueRun;
  /** Values outside the field's range: how many, the farthest out, and whether the last value was. */
  out?: { count: number; worst: number; last: boolean };
}

export interface QualityDigest {
  records: number;
  /** Numeric fields watched for stuck or range (at most MAX_WATCHED_FIELDS). */
  fields: Record<string, FieldDigest>;
  /** Sorted field names of the batch's first record, and of its last where they differ. */
  columns?: { first: string[]; last?: string[] };
  /** Earliest and latest record time, epoch ms. */
  times?: { min: number; max: number };
}

/** Fields of one stream watched at most (bounded state per stream on both sides). */
export const MAX_WATCHED_FIELDS = 256;

interface Slot {
  name: string;
  stuck: boolean;
  range: [number, number] | undefined;
  value: number;
  count: number;
  firstRow: number;
  lastRow: number;
  lead?: { value: number; count: number; firstRow: number; lastRow: number };
  longest?: { value: number; count: number; firstRow: number; lastRow: number };
  outCount: number;
  worst: number;
  lastOut: boolean;
  seen: boolean;
}

/** The fields a stream's settings watch among `names` (null: none, the cheap case of the defaults). */
export function watchedFields(settings: QualitySettings, names: readonly string[]): string[] | null {
  const stuck = settings.stuck;
  const ranged = Object.keys(settings.range);
  if (!stuck && ranged.length === 0) return null;
  const out = new Set<string>();
  for (const name of stuck ? (stuck.fields ?? names) : []) if (out.size < MAX_WATCHED_FIELDS) out.add(name);
  for (const name of ranged) if (out.size < MAX_WATCHED_FIELDS) out.add(name);
  return [...out];
}

/**
 * Digests the values of one batch, row by row: `start` with the watched fields, `value` per watched
 * field and row (rows in batch order), `finish` with the batch's record times.
 */
export class DigestBuilder {
  private slots: Slot[] = [];

  constructor(private readonly settings: QualitySettings) {}

  start(fields: readonly string[]): void {
    const stuckFields = this.settings.stuck ? (this.settings.stuck.fields ? new Set(this.settings.stuck.fields) : null) : undefined;
    this.slots = fields.map((name) => ({
      name,
      stuck: stuckFields === null || (stuckFields?.has(name) ?? false),
      range: this.settings.range[name],
      value: 0,
      count: 0,
      firstRow: 0,
      lastRow: 0,
      outCount: 0,
      worst: 0,
      lastOut: false,
      seen: false,
    }));
  }

  value(slot: number, value: FieldValue | undefined, row: number): void {
    if (typeof value !== 'number' || value !== value) return;
    const s = this.slots[slot]!;
    s.seen = true;
    const range = s.range;
    if (range) {
      const out = value < range[0] || value > range[1];
      s.lastOut = out;
      if (out) {
        const distance = value < range[0] ? range[0] - value : value - range[1];
        const worstDistance = s.worst < range[0] ? range[0] - s.worst : s.worst - range[1];
        if (s.outCount === 0 || distance > worstDistance) s.worst = value;
        s.outCount += 1;
      }
    }
    if (!s.stuck) return;
    if (s.count > 0 && value === s.value) {
      s.count += 1;
      s.lastRow = row;
      return;
    }
    if (s.count > 0) {
      const run = { value: s.value, count: s.count, firstRow: s.firstRow, lastRow: s.lastRow };
      if (!s.lead) s.lead = run;
      else if (!s.longest || run.count > s.longest.count) s.longest = run;
    }
    s.value = value;
    s.count = 1;
    s.firstRow = row;
    s.lastRow = row;
  }

  finish(records: number, timeAt: (row: number) => number, columns: QualityDigest['columns'], times: QualityDigest['times']): QualityDigest {
    const fields: Record<string, FieldDigest> = {};
    const run = (r: { value: number; count: number; firstRow: number; lastRow: number }): ValueRun => ({ value: r.value, count: r.count, from: timeAt(r.firstRow), to: timeAt(r.lastRow) });
    for (const s of this.slots) {
      if (!s.seen) continue;
      const digest: FieldDigest = {};
      if (s.range) digest.out = { count: s.outCount, worst: s.worst, last: s.lastOut };
      if (s.stuck && s.count > 0) {
        digest.trail = run(s);
        digest.whole = !s.lead;
        digest.lead = s.lead ? run(s.lead) : digest.trail;
        if (s.longest) digest.longest = run(s.longest);
      }
      fields[s.name] = digest;
    }
    this.slots = [];
    return { records, fields, ...(columns ? { columns } : {}), ...(times ? { times } : {}) };
  }
}

const sameList = (a: readonly string[], b: readonly string[]) => a === b || (a.length === b.length && a.every((x, i) => x === b[i]));

/**
 * Sorted column lists by the record's own list: a stream's records keep their columns, so each
 * batch's lists are sorted once, not again per batch (400 names per OPC UA machine a second).
 * Shared: never changed by those who get them. Found by count and ends, then compared whole.
 */
const sortedLists = new Map<string, { keys: string[]; sorted: string[] }>();
const MAX_SORTED_LISTS = 256;
function sortedKeys(record: AgentRecord): string[] {
  const keys = Object.keys(record.fieldvalues);
  const id = `${keys.length}\0${keys[0]}\0${keys[keys.length - 1]}`;
  const known = sortedLists.get(id);
  if (known && sameList(known.keys, keys)) return known.sorted;
  const sorted = [...keys].sort();
  if (sortedLists.size >= MAX_SORTED_LISTS) sortedLists.clear();
  sortedLists.set(id, { keys, sorted });
  return sorted;
}

/** The digest of a batch of records (the general commit path), or undefined for an empty batch. */
export function digestRecords(settings: QualitySettings, records: readonly AgentRecord[]): QualityDigest | undefined {
  const n = records.length;
  if (n === 0) return undefined;
  let columns: QualityDigest['columns'];
  if (settings.schema) {
    const first = sortedKeys(records[0]!);
    const last = n > 1 ? sortedKeys(records[n - 1]!) : first;
    columns = sameList(first, last) ? { first } : { first, last };
  }
  let times: QualityDigest['times'];
  if (settings.clock) {
    // The agent writes record times as fixed-width ISO text: the order of the texts is the order of the times.
    let min = records[0]!.timestamp;
    let max = min;
    for (let i = 1; i < n; i += 1) {
      const t = records[i]!.timestamp;
      if (t < min) min = t;
      else if (t > max) max = t;
    }
    const minMs = Date.parse(min);
    const maxMs = Date.parse(max);
    if (minMs === minMs && maxMs === maxMs) times = { min: minMs, max: maxMs };
  }
  const watched = watchedFields(settings, Object.keys(records[0]!.fieldvalues));
  const builder = new DigestBuilder(settings);
  if (watched) {
    builder.start(watched);
    for (let row = 0; row < n; row += 1) {
      const values = records[row]!.fieldvalues;
      for (let slot = 0; slot < watched.length; slot += 1) builder.value(slot, values[watched[slot]!], row);
    }
  }
  return builder.finish(n, (row) => Date.parse(records[row]!.timestamp), columns, times);
}
