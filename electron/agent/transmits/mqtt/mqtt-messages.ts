/**
 * Records → MQTT messages (docs/mqtt.md): one JSON object per record, or JSON arrays of up to
 * max_request_records records; either way no message over max_request_size_bytes (a single record
 * bigger than that is sent alone).
 */
import { expandTopic } from '../../../../shared/config/mqtt-topics.js';
import type { AgentRecord } from '../../../../shared/records/record.js';

export interface MessagePlan {
  topic: string;
  format: 'record' | 'array';
  maxRecords: number;
  maxBytes: number;
  additionalFields: Record<string, unknown>;
}

export interface OutgoingMessage {
  topic: string;
  payload: string;
  records: number;
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

/** `"site":"P1"` of additional_fields, ready to be spliced into each record's object. */
export function additionalJson(fields: Record<string, unknown>): string {
  const text = JSON.stringify(fields);
  return text === '{}' ? '' : text.slice(1, -1);
}

/** The messages of one outbox batch (records of one stream), in order. */
export function messagesOf(plan: MessagePlan, asset: string, streamType: string, records: readonly AgentRecord[], additional = additionalJson(plan.additionalFields)): OutgoingMessage[] {
  const topic = expandTopic(plan.topic, asset, streamType);
  const texts = records.map((record) => recordJson(record, additional));
  if (plan.format === 'record') return texts.map((payload) => ({ topic, payload, records: 1 }));
  const out: OutgoingMessage[] = [];
  let parts: string[] = [];
  let bytes = 2;
  const emit = () => {
    if (parts.length > 0) out.push({ topic, payload: `[${parts.join(',')}]`, records: parts.length });
    parts = [];
    bytes = 2;
  };
  for (const text of texts) {
    const size = Buffer.byteLength(text) + 1;
    if (parts.length > 0 && (parts.length >= plan.maxRecords || bytes + size > plan.maxBytes)) emit();
    parts.push(text);
    bytes += size;
  }
  emit();
  return out;
}
