import crypto from 'node:crypto';
import type { DataValue } from 'node-opcua';
import { type AgentRecord, type FieldValue, isoMicros } from '../../../../shared/records/record.js';
import type { StreamKey } from '../../components/contract.js';
import { type Quality, convertVariant, describeStatus, sampleMicros } from './values.js';

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

const stateKey = (tag: Tag) => `tag:${tag.exportname}`;
export const statusColumn = (exportname: string) => `${exportname}_status`;

/**
 * Turns tag values of one stream into records. Values with the same timestamp form one record; each
 * record has every tag's value column and `<exportname>_status` column, null for tags without a
 * value at that moment (nothing is carried forward or invented). The record's timestamp is the
 * values' source timestamp. Progress is the last value per tag: a value identical to the last one
 * committed (same timestamp, status and value) is the same sample seen again — after a restart,
 * or a poll of an unchanged tag — and is not recorded twice.
 */
export class StreamRecords {
  private readonly last = new Map<string, string>();

  constructor(
    readonly stream: StreamKey,
    readonly tags: readonly Tag[],
    loadState: (key: string) => string | undefined,
  ) {
    for (const tag of tags) {
      const saved = loadState(stateKey(tag));
      if (saved !== undefined) this.last.set(tag.exportname, saved);
    }
  }

  /** Forget the last values (restream): the next values are all recorded. */
  reset(): void {
    this.last.clear();
  }

  build(samples: readonly { tag: Tag; dataValue: DataValue }[], captureMicros: bigint): BuiltBatch {
    const byTime = new Map<bigint, Record<string, FieldValue>>();
    const state: Record<string, string> = {};
    const reports: TagReport[] = [];
    const pending = new Map(this.last);
    for (const { tag, dataValue } of samples) {
      const micros = sampleMicros(dataValue, captureMicros);
      const { name, quality } = describeStatus(dataValue.statusCode);
      const converted = convertVariant(dataValue.value);
      const columns: Record<string, FieldValue> = {};
      if (converted.kind === 'array') converted.values.forEach((v, i) => (columns[`${tag.exportname}_${i}`] = v));
      else columns[tag.exportname] = converted.kind === 'scalar' ? converted.value : null;
      columns[statusColumn(tag.exportname)] = name;
      reports.push({ tag, status: name, quality, micros, rejected: converted.kind === 'rejected' ? converted.reason : undefined });
      const fingerprint = JSON.stringify({ t: isoMicros(micros), node: tag.node, columns });
      if (pending.get(tag.exportname) === fingerprint) continue;
      pending.set(tag.exportname, fingerprint);
      state[stateKey(tag)] = fingerprint;
      let record = byTime.get(micros);
      if (!record) byTime.set(micros, (record = this.emptyColumns()));
      Object.assign(record, columns);
    }
    const capturetime = isoMicros(captureMicros);
    const records = [...byTime.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([micros, fieldvalues]) => {
        const timestamp = isoMicros(micros);
        return { asset: this.stream.asset, stream_type: this.stream.stream_type, timestamp, capturetime, fieldvalues, record_id: recordId(this.stream, timestamp, fieldvalues) };
      });
    return { records, state, reports };
  }

  /** The batch was committed: its values are now the last ones. */
  committed(batch: BuiltBatch): void {
    for (const tag of this.tags) {
      const value = batch.state[stateKey(tag)];
      if (value !== undefined) this.last.set(tag.exportname, value);
    }
  }

  private emptyColumns(): Record<string, FieldValue> {
    const columns: Record<string, FieldValue> = {};
    for (const tag of this.tags) {
      columns[tag.exportname] = null;
      columns[statusColumn(tag.exportname)] = null;
    }
    return columns;
  }
}

function recordId(stream: StreamKey, timestamp: string, fieldvalues: Record<string, FieldValue>): string {
  const present = Object.entries(fieldvalues)
    .filter(([, v]) => v !== null)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return crypto.createHash('sha256').update(`${stream.asset}\0${stream.stream_type}\0${timestamp}\0${JSON.stringify(present)}`).digest('hex').slice(0, 32);
}
