import type { AgentMessage } from '../../../../shared/config/message.js';
import crypto from 'node:crypto';
import type { DataValue } from 'node-opcua-client';
import { type AgentRecord, type FieldValue, isoMicros } from '../../../../shared/records/record.js';
import type { StreamKey } from '../../components/contract.js';
import { LastValues, PendingValues, flatText, statusText } from './last-values.js';
import { type Converted, type Quality, convertVariant, describeStatus, sampleMicrosNumber } from './values.js';

export interface Tag {
  /** Node id as configured, e.g. ns=2;s=Line1.Temp. */
  node: string;
  exportname: string;
}

/** What the receiver learns about a tag from a batch, for its markers. */
export interface TagReport {
  tag: Tag;
  status: string;
  quality: Quality;
  /** Why the value could not be put into the record (array too large, structure …). */
  rejected?: AgentMessage;
  /** Source time, epoch µs. */
  micros: number;
}

export interface BuiltBatch {
  records: AgentRecord[];
  /** Progress to commit with the records: the stream's last values (last-values.ts), when any changed. */
  state: Record<string, string>;
  /** The last values this batch changed (what `committed` keeps). */
  latest: PendingValues;
  reports: TagReport[];
}

export const statusColumn = (exportname: string) => flatText(exportname, '_status');

/** Per tag, what every value of it needs: its column names and its last value's slot. */
interface TagColumns {
  value: string;
  status: string;
  slot: number;
}

function columnsOf(tag: Tag, last: LastValues): TagColumns {
  return { value: tag.exportname, status: statusColumn(tag.exportname), slot: last.slot(tag.exportname) };
}

/** The columns of one value: its value (one column an array element) and its status. */
function valueColumns(tag: Tag, parts: TagColumns, converted: Converted, status: string): Record<string, FieldValue> {
  const out: Record<string, FieldValue> = {};
  if (converted.kind === 'array') converted.values.forEach((v, i) => (out[`${tag.exportname}_${i}`] = v));
  else out[tag.exportname] = converted.kind === 'scalar' ? converted.value : null;
  out[parts.status] = status;
  return out;
}

/**
 * Turns tag values of one stream into records. Values with the same timestamp form one record; each
 * record has every tag's value column and `<exportname>_status` column, null for tags without a
 * value at that moment (nothing is carried forward or invented). The record's timestamp is the
 * values' source timestamp. Progress is the last value per tag: a value identical to the last one
 * committed (same timestamp, status and value) is the same sample seen again — after a restart,
 * or a poll of an unchanged tag — and is not recorded twice.
 */
export class StreamRecords {
  private readonly last: LastValues;
  private readonly parts = new Map<string, TagColumns>();
  /** Column index of each tag's value column (its status column is the next one). */
  private readonly indexOf = new Map<string, number>();
  /** A record's columns from their values in column order (see columnsMaker). */
  private readonly columnsOf: (values: readonly FieldValue[]) => Record<string, FieldValue>;
  private readonly nullRow: FieldValue[];
  /** The column names sorted as recordId sorts them: each one's index, and its JSON key part. */
  private readonly sorted: { index: Int32Array; json: string[] };

  constructor(
    readonly stream: StreamKey,
    readonly tags: readonly Tag[],
    loadState: (key: string) => string | undefined,
  ) {
    this.last = new LastValues(tags.map((tag) => tag.exportname), loadState);
    // Column names of a record, in order: each tag's value and status column (the same texts as
    // its parts: one copy of each name per stream).
    const columnNames: string[] = [];
    for (const tag of tags) {
      const parts = columnsOf(tag, this.last);
      this.parts.set(tag.exportname, parts);
      columnNames.push(parts.value, parts.status);
    }
    // A name given twice (two tags of one exportname) keeps its last column, as an object would.
    columnNames.forEach((name, index) => this.indexOf.set(name, index));
    // A column `__proto__` was never an own key of a record (set by assignment, it is the prototype): kept so.
    const unique = [...new Set(columnNames)].filter((name) => name !== '__proto__');
    this.columnsOf = columnsMaker(unique.map((name) => [name, this.indexOf.get(name)!]));
    this.nullRow = columnNames.map(() => null);
    unique.sort();
    this.sorted = { index: Int32Array.from(unique, (name) => this.indexOf.get(name)!), json: unique.map((name) => flatText('[', JSON.stringify(name), ',')) };
  }

  /** Source time (µs) of the tag's last value committed: where a gap starts (backfill-gate.ts). */
  lastMicros(exportname: string): bigint | undefined {
    const micros = this.last.lastMicros(exportname);
    return micros === undefined ? undefined : BigInt(micros);
  }

  /** Forget the last values (restream): the next values are all recorded. */
  reset(): void {
    this.last.clear();
  }

  /**
   * `fromHistory`: values of a gap read from the server's history (backfill-gate.ts), older than
   * the last live value: they are not compared with it and do not become it (no last-value state).
   */
  build(samples: readonly { tag: Tag; dataValue: DataValue }[], captureMicros: bigint, fromHistory = false): BuiltBatch {
    // Per timestamp: the record's columns, and the names of those this batch set (for its record_id).
    const capture = Number(captureMicros);
    // Values in column order (`values`); columns of arrays and unknown tags in `extra`, set over them.
    const byTime = new Map<number, { values: FieldValue[]; extra: Record<string, FieldValue> | undefined; touched: string[] }>();
    const isoOf = new Map<number, string>();
    const reports: TagReport[] = [];
    // The last values as this batch goes: its own values over those committed before.
    const pending = new PendingValues();
    let state: Record<string, string>;
    try {
      for (const { tag, dataValue } of samples) {
        const micros = sampleMicrosNumber(dataValue, capture);
        let iso = isoOf.get(micros);
        if (iso === undefined) isoOf.set(micros, (iso = isoMicros(BigInt(micros))));
        const { name, quality } = describeStatus(dataValue.statusCode);
        const converted = convertVariant(dataValue.value);
        const parts = this.parts.get(tag.exportname) ?? columnsOf(tag, this.last);
        reports.push({ tag, status: name, quality, micros, rejected: converted.kind === 'rejected' ? converted.said : undefined });
        if (!fromHistory) {
          if (this.last.isSame(pending, parts.slot, tag.node, micros, name, converted)) continue;
          this.last.set(pending, parts.slot, tag.node, micros, name, converted);
        }
        let record = byTime.get(micros);
        if (!record) byTime.set(micros, (record = { values: this.nullRow.slice(), extra: undefined, touched: [] }));
        const index = this.indexOf.get(parts.value);
        if (converted.kind === 'scalar' && index !== undefined && record.extra === undefined) {
          record.values[index] = converted.value;
          record.values[index + 1] = name;
          record.touched.push(parts.value, parts.status);
        } else {
          const set = valueColumns(tag, parts, converted, name);
          record.extra = Object.assign(record.extra ?? {}, set);
          record.touched.push(...Object.keys(set));
        }
      }
      state = pending.size === 0 ? {} : this.last.stateOf(pending);
    } finally {
      // The lookups of the batch end here, also when a value threw.
      this.last.end(pending);
    }
    const capturetime = isoMicros(captureMicros);
    const records = [...byTime.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([micros, { values, extra, touched }]) => {
        const timestamp = isoOf.get(micros)!;
        const fieldvalues = this.columnsOf(values);
        if (extra) Object.assign(fieldvalues, extra);
        // Most of a stream's tags in one record (a machine's publish): its columns in their
        // sorted order beat sorting what the batch set.
        const present = !extra && touched.length * 4 > this.sorted.index.length ? presentOfAll(this.sorted, values) : presentOfTouched(fieldvalues, touched);
        return { asset: this.stream.asset, stream_type: this.stream.stream_type, timestamp, capturetime, fieldvalues, record_id: recordId(this.stream, timestamp, present) };
      });
    return { records, state, latest: pending, reports };
  }

  /** The batch was committed: its values are now the last ones. */
  committed(batch: BuiltBatch): void {
    this.last.commit(batch.latest);
  }
}

/**
 * A function making a record's columns from their values in column order, as one object literal
 * (`{"a": v[0], "a_status": v[1], …}`): V8 makes each record a fast object from one template.
 * Made empty and set key by key, a record of hundreds of columns was a slow dictionary object and
 * each set a lookup (bench/opcua-records.mjs).
 */
function columnsMaker(columns: readonly (readonly [string, number])[]): (values: readonly FieldValue[]) => Record<string, FieldValue> {
  // JSON-quoted names are JavaScript string literals (the caller leaves `__proto__` out).
  const body = columns.map(([name, index]) => `${JSON.stringify(name)}: v[${index}]`).join(',');
  return new Function('v', `return {${body}};`) as (values: readonly FieldValue[]) => Record<string, FieldValue>;
}

/**
 * `JSON.stringify` of the record's non-null columns as [name, value] pairs sorted by name. Only
 * the columns the batch set (`touched`, names may repeat) can be non-null: the others are empty.
 */
function presentOfTouched(fieldvalues: Record<string, FieldValue>, touched: string[]): string {
  touched.sort();
  const present: [string, FieldValue][] = [];
  for (let i = 0; i < touched.length; i++) {
    const key = touched[i]!;
    if (key === touched[i - 1]) continue;
    const value = fieldvalues[key]!;
    if (value !== null) present.push([key, value]);
  }
  return JSON.stringify(present);
}

/**
 * The same text from all of the stream's columns in sorted order (records with scalar columns only),
 * written once by `join`: built by `+=`, each column cost a tree of pieces (~150 bytes a column, the
 * receiver's largest allocation at 20,000 tags; docs/performance.md). Statuses are few: their JSON
 * text is looked up (statusText), not made again.
 */
function presentOfAll(sorted: { readonly index: Int32Array; readonly json: readonly string[] }, values: readonly FieldValue[]): string {
  const parts: (string | number | boolean)[] = ['['];
  for (let i = 0; i < sorted.index.length; i += 1) {
    const value = values[sorted.index[i]!];
    if (value === null || value === undefined) continue;
    if (parts.length > 1) parts.push(',');
    // A finite number or a boolean is its own JSON text in a join (values.ts lets no NaN or infinity
    // through): no string per value.
    parts.push(sorted.json[i]!, typeof value === 'string' ? statusText(value) : value, ']');
  }
  parts.push(']');
  return parts.join('');
}

/** sha256 of the stream, timestamp and the record's non-null columns sorted by name. */
function recordId(stream: StreamKey, timestamp: string, present: string): string {
  return crypto.createHash('sha256').update(`${stream.asset}\0${stream.stream_type}\0${timestamp}\0${present}`).digest('hex').slice(0, 32);
}
