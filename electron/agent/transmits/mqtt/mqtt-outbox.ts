/**
 * The outbox of an mqtt transmit (docs/mqtt.md): records are turned into the JSON text the broker
 * will get once, when they are committed (usually in a receiver's parse worker), so that sending is
 * copying bytes. A stored payload is either
 * - one array message, `[{…},{…}]` (message_format "array": at most max_request_records records and
 *   max_request_size_bytes bytes; a single bigger record goes alone), or
 * - records one per line, `{…}\n{…}` (message_format "record": each line is one message).
 * JSON text never holds a raw line break, so the lines split cleanly. Each payload says its own form,
 * so batches stored before message_format changed are still sent, in the form they were stored in.
 * The topic is not stored: it is expanded from the batch's stream when sending.
 * Runs in parse workers: no client library here.
 */
import { type AgentRecord, type FieldValue } from '../../../../shared/records/record.js';
import type { EncodedBatch, OutboxCodec } from '../../components/contract.js';

export interface MqttOutboxOptions {
  format: 'record' | 'array';
  maxRecords: number;
  maxBytes: number;
  /** additional_fields as `"site":"P1"`, spliced into each record's object ('' for none). */
  additional: string;
}

const OPEN_BRACKET = 0x5b;
const NEWLINE = 0x0a;

/** `"site":"P1"` of additional_fields, ready to be spliced into each record's object. */
export function additionalJson(fields: Record<string, unknown> | undefined): string {
  const text = JSON.stringify(fields ?? {});
  return text === '{}' ? '' : text.slice(1, -1);
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
  const texts = records.map((record) => recordJson(record, options.additional));
  if (options.format === 'array') {
    let start = 0;
    return arrayMessages(texts, (text) => Buffer.byteLength(text), (parts) => `[${parts.join(',')}]`, options.maxRecords, options.maxBytes).map(({ text, records: count }) => {
      const batch = { payload: Buffer.from(text), records: count, first: records[start]!, last: records[start + count - 1]! };
      start += count;
      return batch;
    });
  }
  // One row per max_request_records records: a round of PUBACKs never waits on a huge batch.
  const out: EncodedBatch[] = [];
  for (let start = 0; start < texts.length; start += options.maxRecords) {
    const end = Math.min(texts.length, start + options.maxRecords);
    out.push({ payload: Buffer.from(texts.slice(start, end).join('\n')), records: end - start, first: records[start]!, last: records[end - 1]! });
  }
  return out;
}

/** A stored payload's record texts (lines) or its one array message. */
export function isArrayPayload(payload: Buffer): boolean {
  return payload[0] === OPEN_BRACKET;
}

/** The lines of a record-per-line payload, as slices of it (no copy). */
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

function decode(payload: Buffer): AgentRecord[] {
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
    const c = config as { message_format?: 'record' | 'array'; max_request_records?: number; max_request_size_bytes?: number; additional_fields?: Record<string, unknown> };
    return {
      format: c.message_format ?? 'record',
      maxRecords: c.max_request_records ?? 1000,
      maxBytes: c.max_request_size_bytes ?? 262_144,
      additional: additionalJson(c.additional_fields),
    };
  },
  encode,
  decode,
};
