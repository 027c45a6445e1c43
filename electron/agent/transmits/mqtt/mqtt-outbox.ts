/**
 * The outbox of an mqtt transmit (docs/mqtt.md): records are turned into the JSON text the broker
 * will get once, when they are committed (usually in a receiver's parse worker), so that sending is
 * copying bytes. The text is stored gzip-compressed (level 1: ~0.5 µs a record; JSON of machine
 * data shrinks 10–15×, so commits, deletes after PUBACK and the KPI history write that much less,
 * and max_buffer_mb holds that many more records). Uncompressed, a message is either
 * - one array message, `[{…},{…}]` (message_format "array": at most max_request_records records and
 *   max_request_size_bytes bytes; a single bigger record goes alone), or
 * - records one per line, `{…}\n{…}` (message_format "record": each line is one message).
 * JSON text never holds a raw line break, so the lines split cleanly. Each payload says its own form,
 * so batches stored before message_format changed are still sent, in the form they were stored in.
 * The topic is not stored: it is expanded from the batch's stream when sending.
 * Runs in parse workers: no client library here.
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import { type AgentRecord, type FieldValue } from '../../../../shared/records/record.js';
import type { EncodedBatch, OutboxCodec } from '../../components/contract.js';
import { recordSpan } from '../../components/record-span.js';
import { decodeSparkplug, encodeSparkplug, isSparkplugPayload } from './sparkplug-outbox.js';

export interface MqttOutboxOptions {
  format: 'record' | 'array';
  /** payload_format "sparkplug_b": DDATA metrics (sparkplug-outbox.ts) instead of JSON text. */
  sparkplug?: boolean;
  maxRecords: number;
  maxBytes: number;
  /** additional_fields as `"site":"P1"`, spliced into each record's object ('' for none). */
  additional: string;
  /**
   * additional_fields as an object when merging it into each record's object gives the same text
   * as splicing (no key of a record, no key that sorts first as an array index): the array fast path.
   */
  merge: Record<string, unknown> | undefined;
}

const OPEN_BRACKET = 0x5b;
const NEWLINE = 0x0a;
const GZIP_LEVEL = 1;

/** The stored form of message text. */
function stored(text: Buffer | string): Buffer {
  return gzipSync(text, { level: GZIP_LEVEL });
}

/** The message text of a stored payload (payloads stored before compression are plain text). */
export function messageText(payload: Buffer): Buffer {
  return payload[0] === 0x1f && payload[1] === 0x8b ? gunzipSync(payload) : payload;
}

/** `"site":"P1"` of additional_fields, ready to be spliced into each record's object. */
export function additionalJson(fields: Record<string, unknown> | undefined): string {
  const text = JSON.stringify(fields ?? {});
  return text === '{}' ? '' : text.slice(1, -1);
}

const RECORD_KEYS = new Set(['asset', 'stream_type', 'timestamp', 'capturetime', 'fieldvalues', 'record_id', '__proto__']);

/** additional_fields to merge into record objects, or undefined when only splicing gives the published text. */
export function additionalMerge(fields: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  const copy = JSON.parse(JSON.stringify(fields ?? {})) as Record<string, unknown>;
  // Index-like keys ("1") are enumerated before the others: merged, they would come first.
  return Object.keys(copy).every((key) => !RECORD_KEYS.has(key) && !/^\d/.test(key)) ? copy : undefined;
}

/** The JSON text of one record as published: its fields, then the additional fields. */
export function recordJson(record: AgentRecord, additional: string): string {
  const core = JSON.stringify({
    asset: record.asset,
    stream_type: record.stream_type,
    timestamp: record.timestamp,
    capturetime: record.capturetime,
    fieldvalues: record.fieldvalues,
    record_id: record.record_id,
  });
  return additional === '' ? core : `${core.slice(0, -1)},${additional}}`;
}

/** Groups record texts into arrays of at most maxRecords records and maxBytes bytes. */
export function arrayMessages<T>(texts: readonly T[], size: (text: T) => number, join: (texts: T[]) => T, maxRecords: number, maxBytes: number): { text: T; records: number }[] {
  const out: { text: T; records: number }[] = [];
  let parts: T[] = [];
  let bytes = 2;
  const emit = () => {
    if (parts.length > 0) out.push({ text: join(parts), records: parts.length });
    parts = [];
    bytes = 2;
  };
  for (const text of texts) {
    const length = size(text) + 1;
    if (parts.length > 0 && (parts.length >= maxRecords || bytes + length > maxBytes)) emit();
    parts.push(text);
    bytes += length;
  }
  emit();
  return out;
}

function encode(records: readonly AgentRecord[], options: MqttOutboxOptions): EncodedBatch[] {
  if (records.length === 0) return [];
  if (options.sparkplug) return withSpans(records, encodeSparkplug(records, options.maxRecords, options.maxBytes));
  if (options.format === 'array') return withSpans(records, encodeArrays(records, options));
  const texts = records.map((record) => recordJson(record, options.additional));
  // One row per max_request_records records: a round of PUBACKs never waits on a huge batch.
  const out: EncodedBatch[] = [];
  for (let start = 0; start < texts.length; start += options.maxRecords) {
    const end = Math.min(texts.length, start + options.maxRecords);
    out.push({ payload: stored(texts.slice(start, end).join('\n')), records: end - start, first: records[start]!, last: records[end - 1]! });
  }
  return withSpans(records, out);
}

/**
 * Array messages of max_request_records records made by one JSON.stringify each (a third of the
 * CPU of a text per record). The texts are the same as recordArrays' (a property test holds them
 * equal): when a group is too big for max_request_size_bytes, or additional_fields cannot be merged,
 * the rest of the batch goes the general way, which splits by size.
 */
function encodeArrays(records: readonly AgentRecord[], options: MqttOutboxOptions): EncodedBatch[] {
  const out: EncodedBatch[] = [];
  const merge = options.merge;
  const plain = merge !== undefined && Object.keys(merge).length === 0;
  let start = 0;
  while (merge !== undefined && start < records.length) {
    const end = Math.min(records.length, start + options.maxRecords);
    const objects: object[] = [];
    for (let i = start; i < end; i += 1) {
      const r = records[i]!;
      const object = { asset: r.asset, stream_type: r.stream_type, timestamp: r.timestamp, capturetime: r.capturetime, fieldvalues: r.fieldvalues, record_id: r.record_id };
      objects.push(plain ? object : Object.assign(object, merge));
    }
    const payload = Buffer.from(JSON.stringify(objects));
    // The general way counts a separator after every record: a group fits when it has room for one more byte.
    if (payload.length + 1 > options.maxBytes) break;
    out.push({ payload: stored(payload), records: end - start, first: records[start]!, last: records[end - 1]! });
    start = end;
  }
  if (start < records.length) out.push(...recordArrays(records.slice(start), options));
  return out;
}

/** Array messages from one text per record, split by count and size (the general way). */
export function recordArrays(records: readonly AgentRecord[], options: MqttOutboxOptions): EncodedBatch[] {
  const texts = records.map((record) => recordJson(record, options.additional));
  let start = 0;
  return arrayMessages(texts, (text) => Buffer.byteLength(text), (parts) => `[${parts.join(',')}]`, options.maxRecords, options.maxBytes).map(({ text, records: count }) => {
    const batch = { payload: stored(text), records: count, first: records[start]!, last: records[start + count - 1]! };
    start += count;
    return batch;
  });
}

/**
 * Each payload's time span for the KPI history, which keeps these payloads as they are: records
 * are stored in the order they came, not sorted by time.
 */
function withSpans(records: readonly AgentRecord[], batches: EncodedBatch[]): EncodedBatch[] {
  let index = 0;
  for (const batch of batches) {
    const span = recordSpan(records, index, (index += batch.records));
    if (span) batch.span = span;
  }
  return batches;
}

/** Whether message text (messageText) is one array message rather than record lines. */
export function isArrayPayload(text: Buffer): boolean {
  return text[0] === OPEN_BRACKET;
}

/** The lines of record-per-line message text, as slices of it (no copy). */
export function payloadLines(payload: Buffer): Buffer[] {
  const out: Buffer[] = [];
  let start = 0;
  for (let end = payload.indexOf(NEWLINE); end !== -1; end = payload.indexOf(NEWLINE, start)) {
    out.push(payload.subarray(start, end));
    start = end + 1;
  }
  out.push(payload.subarray(start));
  return out;
}

function decode(stored: Buffer): AgentRecord[] {
  if (isSparkplugPayload(stored)) return decodeSparkplug(stored);
  const payload = messageText(stored);
  const objects: Record<string, unknown>[] = isArrayPayload(payload)
    ? (JSON.parse(payload.toString('utf8')) as Record<string, unknown>[])
    : payloadLines(payload).map((line) => JSON.parse(line.toString('utf8')) as Record<string, unknown>);
  return objects.map((o) => ({
    asset: o.asset as string,
    stream_type: o.stream_type as string,
    timestamp: o.timestamp as string,
    capturetime: o.capturetime as string,
    record_id: o.record_id as string,
    fieldvalues: o.fieldvalues as Record<string, FieldValue>,
  }));
}

export const MQTT_OUTBOX: OutboxCodec<MqttOutboxOptions> = {
  format: 'mqtt-json',
  options: (config) => {
    const c = config as { payload_format?: string; message_format?: 'record' | 'array'; max_request_records?: number; max_request_size_bytes?: number; additional_fields?: Record<string, unknown> };
    return {
      format: c.message_format ?? 'record',
      sparkplug: c.payload_format === 'sparkplug_b',
      maxRecords: c.max_request_records ?? 1000,
      maxBytes: c.max_request_size_bytes ?? 262_144,
      additional: additionalJson(c.additional_fields),
      merge: additionalMerge(c.additional_fields),
    };
  },
  encode,
  decode,
  keptByHistory: true,
};
