/**
 * The outbox form of a Sparkplug B transmit (payload_format "sparkplug_b", docs/mqtt.md): the DDATA
 * metrics of up to max_request_records records of one device, encoded once at commit (usually in
 * a parse worker). What depends on the connection (the payload's time stamp and seq, the births)
 * is added when sending: Payload fields may come in any order, so the stored metrics are copied as
 * they are between a time stamp and a seq (sparkplug-codec.ts, payloadWith).
 *
 * Stored: "SPB\x02", then gzip (level 1) of: a 4-byte header length, the header as JSON (asset,
 * stream_type, and per metric name its datatype and where its last value is in the metric bytes,
 * for the device's next birth), then the metric bytes. Each record's fields become metrics carrying
 * the record's time stamp. gzip: ~214 → ~37 bytes a row of the bench's, which SQLite writes twice
 * (outbox and KPI history) and deletes; +~0.8 µs a row to compress, +~0.6 to inflate when sending
 * (docs/performance.md). "SPB\x01" (the same, not compressed) is still read.
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import type { AgentRecord, FieldValue } from '../../../../shared/records/record.js';
import type { EncodedBatch } from '../../components/contract.js';
import { DataType, type MetricValue, ProtoWriter, metricPrefix, metricTimeLength, writeMetricFast } from '../../mqtt/sparkplug-codec.js';
import { decodePayload, metricValue } from '../../mqtt/sparkplug-decode.js';
import { isoMicros } from '../../../../shared/records/record.js';
import { isoToEpochMicros } from '../../time/iso-time.js';

const PLAIN = Buffer.from('SPB\x01', 'latin1');
const MAGIC = Buffer.from('SPB\x02', 'latin1');
const GZIP_LEVEL = 1;
/** A stored batch inflates to at most this (a DDATA ≤ max_request_size_bytes, plus its header). */
const MAX_INFLATED_BYTES = 256 << 20;
/** ISO 8601 with a zone: such text is a DateTime metric (without a zone it would be ambiguous). */
const ISO_WITH_ZONE = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})$/;

/** A metric of a stored batch: name, datatype, and the bytes of its last value in the metric bytes. */
export type StoredMetric = [name: string, datatype: number, start: number, end: number];

export interface SparkplugBatch {
  asset: string;
  stream_type: string;
  metrics: StoredMetric[];
  /** Payload.metrics entries (field 2), ready to be put into a DDATA. */
  body: Buffer;
}

export function isSparkplugPayload(payload: Buffer): boolean {
  return payload.length >= 8 && (payload.subarray(0, 4).equals(MAGIC) || payload.subarray(0, 4).equals(PLAIN));
}

export function readSparkplugBatch(stored: Buffer): SparkplugBatch {
  const payload = stored[3] === MAGIC[3] ? gunzipSync(stored.subarray(4), { maxOutputLength: MAX_INFLATED_BYTES }) : stored.subarray(4);
  const length = payload.readUInt32LE(0);
  const header = JSON.parse(payload.toString('utf8', 4, 4 + length)) as { a: string; s: string; m: StoredMetric[] };
  return { asset: header.a, stream_type: header.s, metrics: header.m, body: payload.subarray(4 + length) };
}

type Kind = 'int' | 'double' | 'bool' | 'text' | 'time' | 'null';

function kindOf(value: FieldValue): Kind {
  if (value === null) return 'null';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'double';
  if (typeof value === 'boolean') return 'bool';
  return value.length >= 17 && value.charCodeAt(4) === 0x2d && ISO_WITH_ZONE.test(value) ? 'time' : 'text';
}

const TYPE_OF: Record<Kind, number> = { int: DataType.Int64, double: DataType.Double, bool: DataType.Boolean, text: DataType.String, time: DataType.DateTime, null: DataType.String };

/**
 * One datatype per field across the records of a message: integers Int64, other numbers Double
 * (integers among them too), booleans Boolean, text String, ISO times with a zone DateTime; fields
 * whose values are of different kinds are String (text of each value), fields only null String.
 */
export function fieldTypes(records: readonly AgentRecord[]): Map<string, number> {
  const kinds = new Map<string, Kind>();
  for (const record of records) {
    for (const name in record.fieldvalues) {
      const kind = kindOf(record.fieldvalues[name]!);
      const seen = kinds.get(name);
      if (seen === undefined || seen === 'null') kinds.set(name, kind);
      else if (kind === 'null' || seen === kind) continue;
      else if ((seen === 'int' && kind === 'double') || (seen === 'double' && kind === 'int')) kinds.set(name, 'double');
      else kinds.set(name, 'text');
    }
  }
  const out = new Map<string, number>();
  for (const [name, kind] of kinds) out.set(name, TYPE_OF[kind]);
  return out;
}

function valueAs(datatype: number, value: FieldValue): MetricValue {
  if (value === null) return null;
  if (datatype === DataType.DateTime) {
    // The agent's own time stamps take isoToEpochMicros's fast path; other ISO texts Date.parse.
    const micros = isoToEpochMicros(value as string);
    const ms = micros === undefined ? Date.parse(value as string) : Math.floor(micros / 1000);
    return Number.isFinite(ms) ? ms : null;
  }
  if (datatype === DataType.String) return typeof value === 'string' ? value : String(value);
  return value;
}

function timeMs(record: AgentRecord): number {
  const micros = isoToEpochMicros(record.timestamp) ?? isoToEpochMicros(record.capturetime);
  return micros === undefined ? Date.now() : Math.floor(Number(micros) / 1000);
}

/** The stored batches of records of one stream: at most maxRecords records and about maxBytes bytes each. */
export function encodeSparkplug(records: readonly AgentRecord[], maxRecords: number, maxBytes: number): EncodedBatch[] {
  const out: EncodedBatch[] = [];
  for (let start = 0; start < records.length; start += maxRecords) {
    const chunk = records.slice(start, start + maxRecords);
    out.push(...encodeChunk(chunk, fieldTypes(chunk), maxBytes));
  }
  return out;
}

function encodeChunk(records: readonly AgentRecord[], types: Map<string, number>, maxBytes: number): EncodedBatch[] {
  const prefixes = new Map<string, Buffer>();
  for (const [name, datatype] of types) prefixes.set(name, metricPrefix(name, datatype));
  const out: EncodedBatch[] = [];
  // About what the records need (it grows if not): a 1 MiB buffer per chunk was garbage to collect.
  const initial = () => Math.max(4096, Math.min(maxBytes, 1 << 20, records.length * types.size * 32));
  let writer = new ProtoWriter(initial());
  /** Where each field's last metric is: start and end in the metric bytes. */
  let last = new Map<string, [number, number]>();
  let first = 0;
  const record = (index: number): void => {
    const r = records[index]!;
    const ms = timeMs(r);
    const timeLength = metricTimeLength(ms);
    for (const name in r.fieldvalues) {
      const datatype = types.get(name)!;
      const at = writer.length;
      writeMetricFast(writer, prefixes.get(name)!, ms, timeLength, datatype, valueAs(datatype, r.fieldvalues[name]!));
      const span = last.get(name);
      if (span) {
        span[0] = at;
        span[1] = writer.length;
      } else last.set(name, [at, writer.length]);
    }
  };
  const emit = (end: number) => {
    const metrics: StoredMetric[] = [...last].map(([name, [s, e]]) => [name, types.get(name)!, s, e]);
    const r = records[first]!;
    const header = Buffer.from(JSON.stringify({ a: r.asset, s: r.stream_type, m: metrics }), 'utf8');
    const size = Buffer.alloc(4);
    size.writeUInt32LE(header.length);
    const packed = gzipSync(Buffer.concat([size, header, writer.view()]), { level: GZIP_LEVEL });
    out.push({ payload: Buffer.concat([MAGIC, packed]), records: end - first, first: r, last: records[end - 1]! });
  };
  for (let i = 0; i < records.length; i += 1) {
    const before = writer.length;
    record(i);
    if (writer.length > maxBytes && i > first) {
      // Too big with this record: the message ends before it, which starts the next one.
      writer.length = before;
      last = lastSpans(writer.view());
      emit(i);
      writer = new ProtoWriter(initial());
      last = new Map();
      first = i;
      record(i);
    }
  }
  if (first < records.length) emit(records.length);
  return out;
}

/** Where each name's last metric is in metric bytes this module wrote (the name comes first in each). */
function lastSpans(body: Buffer): Map<string, [number, number]> {
  const out = new Map<string, [number, number]>();
  let at = 0;
  const varint = () => {
    let value = 0;
    for (let shift = 1; ; shift *= 0x80) {
      const b = body[at++]!;
      value += (b & 0x7f) * shift;
      if (b < 0x80) return value;
    }
  };
  while (at < body.length) {
    const start = at;
    at += 1;
    const length = varint();
    const end = at + length;
    at += 1;
    const nameLength = varint();
    out.set(body.toString('utf8', at, at + nameLength), [start, end]);
    at = end;
  }
  return out;
}

/** The records of a stored batch (for the KPI history): one per time stamp, in order. */
export function decodeSparkplug(payload: Buffer): AgentRecord[] {
  const batch = readSparkplugBatch(payload);
  const types = new Map(batch.metrics.map(([name, datatype]) => [name, datatype]));
  const out: AgentRecord[] = [];
  let current: AgentRecord | undefined;
  let currentMs = Number.NaN;
  for (const metric of decodePayload(batch.body).metrics) {
    const name = metric.name ?? '';
    const ms = metric.timestamp ?? 0;
    if (!current || ms !== currentMs || Object.hasOwn(current.fieldvalues, name)) {
      const time = isoMicros(BigInt(ms) * 1000n);
      current = { asset: batch.asset, stream_type: batch.stream_type, timestamp: time, capturetime: time, fieldvalues: {}, record_id: '' };
      currentMs = ms;
      out.push(current);
    }
    current.fieldvalues[name] = metricValue(metric, metric.datatype ?? types.get(name)) ?? null;
  }
  return out;
}
