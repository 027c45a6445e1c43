import crypto from 'node:crypto';
import type { DataValue } from 'node-opcua';
import { type AgentRecord, type FieldValue, isoMicros } from '../../../../shared/records/record.js';
import type { StreamKey } from '../../components/contract.js';
import { type Converted, type Quality, convertVariant, describeStatus, sampleMicros } from './values.js';

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
  rejected?: string;
  micros: bigint;
}

export interface BuiltBatch {
  records: AgentRecord[];
  /** Progress to commit with the records: the last value per tag. */
  state: Record<string, string>;
  reports: TagReport[];
}

const STATE_PREFIX = 'tag:';
const stateKey = (tag: Tag) => `${STATE_PREFIX}${tag.exportname}`;
export const statusColumn = (exportname: string) => `${exportname}_status`;

/**
 * Turns tag values of one stream into records. Values with the same timestamp form one record; each
 * record has every tag's value column and `<exportname>_status` column, null for tags without a
 * value at that moment (nothing is carried forward or invented). The record's timestamp is the
 * values' source timestamp. Progress is the last value per tag: a value identical to the last one
 * committed (same timestamp, status and value) is the same sample seen again — after a restart,
 * or a poll of an unchanged tag — and is not recorded twice.
 */
/** Per tag, what every value of it needs: its column names and the fixed parts of its fingerprint. */
interface TagColumns {
  value: string;
  status: string;
  stateKey: string;
  /** `{"t":` … `,"node":<node>,"columns":{<value column>:` and `,<status column>:` (JSON, see fingerprint). */
  node: string;
  valueKey: string;
  statusKey: string;
}

function columnsOf(tag: Tag): TagColumns {
  return {
    value: tag.exportname,
    status: statusColumn(tag.exportname),
    stateKey: stateKey(tag),
    node: `,"node":${JSON.stringify(tag.node)},"columns":{`,
    valueKey: `${JSON.stringify(tag.exportname)}:`,
    statusKey: `,${JSON.stringify(statusColumn(tag.exportname))}:`,
  };
}

/**
 * What is stored as a tag's last value: `JSON.stringify({ t, node, columns })` of the value's
 * timestamp, node and columns. Kept byte for byte (an agent restarted after an update still
 * recognises the last values it stored), but built from per-tag parts for the common case of a
 * scalar value: 5,000 tags a second each make one.
 */
function fingerprint(parts: TagColumns, tag: Tag, iso: string, converted: Converted, status: string): string {
  if (converted.kind !== 'scalar' || tag.exportname === '__proto__') return JSON.stringify({ t: iso, node: tag.node, columns: valueColumns(tag, parts, converted, status) });
  return `{"t":"${iso}"${parts.node}${parts.valueKey}${JSON.stringify(converted.value)}${parts.statusKey}${JSON.stringify(status)}}}`;
}

/** The columns of one value: its value (one column an array element) and its status. */
function valueColumns(tag: Tag, parts: TagColumns, converted: Converted, status: string): Record<string, FieldValue> {
  const out: Record<string, FieldValue> = {};
  if (converted.kind === 'array') converted.values.forEach((v, i) => (out[`${tag.exportname}_${i}`] = v));
  else out[tag.exportname] = converted.kind === 'scalar' ? converted.value : null;
  out[parts.status] = status;
  return out;
}

export class StreamRecords {
  private readonly last = new Map<string, string>();
  private readonly parts = new Map<string, TagColumns>();
  /** Column names of a record, in order: each tag's value and status column. */
  private readonly columnNames: string[];

  constructor(
    readonly stream: StreamKey,
    readonly tags: readonly Tag[],
    loadState: (key: string) => string | undefined,
  ) {
    for (const tag of tags) {
      const saved = loadState(stateKey(tag));
      if (saved !== undefined) this.last.set(tag.exportname, saved);
      this.parts.set(tag.exportname, columnsOf(tag));
    }
    this.columnNames = tags.flatMap((tag) => [tag.exportname, statusColumn(tag.exportname)]);
  }

  /** Forget the last values (restream): the next values are all recorded. */
  reset(): void {
    this.last.clear();
  }

  /**
   * `fromHistory`: values of a gap read from the server's history (backfill-gate.ts), older than
   * the last live value: they are not compared with it and do not become it (no `tag:` state).
   */
  build(samples: readonly { tag: Tag; dataValue: DataValue }[], captureMicros: bigint, fromHistory = false): BuiltBatch {
    // Per timestamp: the record's columns, and the names of those this batch set (for its record_id).
    const byTime = new Map<bigint, { fieldvalues: Record<string, FieldValue>; touched: string[] }>();
    const isoOf = new Map<bigint, string>();
    const state: Record<string, string> = {};
    const reports: TagReport[] = [];
    // The last values as this batch goes: its own values over those committed before.
    const pending = new Map<string, string>();
    for (const { tag, dataValue } of samples) {
      const micros = sampleMicros(dataValue, captureMicros);
      let iso = isoOf.get(micros);
      if (iso === undefined) isoOf.set(micros, (iso = isoMicros(micros)));
      const { name, quality } = describeStatus(dataValue.statusCode);
      const converted = convertVariant(dataValue.value);
      const parts = this.parts.get(tag.exportname) ?? columnsOf(tag);
      reports.push({ tag, status: name, quality, micros, rejected: converted.kind === 'rejected' ? converted.reason : undefined });
      if (!fromHistory) {
        const print = fingerprint(parts, tag, iso, converted, name);
        if ((pending.get(tag.exportname) ?? this.last.get(tag.exportname)) === print) continue;
        pending.set(tag.exportname, print);
        state[parts.stateKey] = print;
      }
      let record = byTime.get(micros);
      if (!record) byTime.set(micros, (record = { fieldvalues: this.emptyColumns(), touched: [] }));
      if (converted.kind === 'scalar') {
        record.fieldvalues[parts.value] = converted.value;
        record.fieldvalues[parts.status] = name;
        record.touched.push(parts.value, parts.status);
      } else {
        const set = valueColumns(tag, parts, converted, name);
        Object.assign(record.fieldvalues, set);
        record.touched.push(...Object.keys(set));
      }
    }
    const capturetime = isoMicros(captureMicros);
    const records = [...byTime.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([micros, { fieldvalues, touched }]) => {
        const timestamp = isoOf.get(micros)!;
        return { asset: this.stream.asset, stream_type: this.stream.stream_type, timestamp, capturetime, fieldvalues, record_id: recordId(this.stream, timestamp, fieldvalues, touched) };
      });
    return { records, state, reports };
  }

  /** The batch was committed: its values are now the last ones. */
  committed(batch: BuiltBatch): void {
    for (const [key, value] of Object.entries(batch.state)) this.last.set(key.slice(STATE_PREFIX.length), value);
  }

  private emptyColumns(): Record<string, FieldValue> {
    const columns: Record<string, FieldValue> = {};
    for (const name of this.columnNames) columns[name] = null;
    return columns;
  }
}

/**
 * sha256 of the stream, timestamp and the record's non-null columns sorted by name. Only the
 * columns the batch set (`touched`, names may repeat) can be non-null: the others are empty.
 */
function recordId(stream: StreamKey, timestamp: string, fieldvalues: Record<string, FieldValue>, touched: string[]): string {
  touched.sort();
  const present: [string, FieldValue][] = [];
  for (let i = 0; i < touched.length; i++) {
    const key = touched[i]!;
    if (key === touched[i - 1]) continue;
    const value = fieldvalues[key]!;
    if (value !== null) present.push([key, value]);
  }
  return crypto.createHash('sha256').update(`${stream.asset}\0${stream.stream_type}\0${timestamp}\0${JSON.stringify(present)}`).digest('hex').slice(0, 32);
}
