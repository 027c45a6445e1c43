/**
 * MQTT messages → records (docs/mqtt.md): a JSON object is one record (scalars become columns,
 * nested objects are flattened with dots, arrays are kept as JSON text), a JSON array of objects is
 * one record per object, a plain value is one column. The time stamp comes from a field (strptime
 * format, epoch unit, or ISO 8601), else it is the time of receipt.
 */
import { say, type AgentMessage } from '../../../../shared/config/message.js';
import crypto from 'node:crypto';
import type { z } from 'zod';
import type { MqttStreamSchema } from '../../../../shared/config/mqtt-schema.js';
import { type AgentRecord, type FieldValue, isoMicros } from '../../../../shared/records/record.js';
import type { StreamKey } from '../../components/contract.js';
import { JSON_LIMITS, describeBytes, jsonTextProblem } from '../../decoding/bounded-json.js';
import { guessDateTime, strptimeReader } from '../../time/strptime.js';
import { wallTimeToUtcMicros } from '../../time/zoned.js';

export type MqttStreamConfig = z.infer<typeof MqttStreamSchema>;

const MICROS_PER_UNIT = { s: 1_000_000, ms: 1_000, us: 1, ns: 0.001 } as const;
/** Nested objects deeper than this are kept as JSON text: a runaway message must not explode. */
const MAX_DEPTH = 8;
const NUMBER = /^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/;

export interface MessageReading {
  records: AgentRecord[];
  /** The message could not be read at all (not JSON, not objects): why. */
  unreadable?: AgentMessage;
  /** Records whose time stamp field was missing or unreadable (they got the time of receipt). */
  badTimestamps: number;
  /** An example of such a time stamp value. */
  badTimestampExample?: string;
}

/** Reads the messages of one stream. */
export class MessageReader {
  private readonly readTimestamp: ((value: FieldValue | undefined) => bigint | undefined) | undefined;

  constructor(
    readonly stream: StreamKey,
    private readonly config: MqttStreamConfig,
  ) {
    this.readTimestamp = config.timestamp_field === undefined ? undefined : timestampReader(config);
  }

  read(topic: string, payload: Buffer, receivedMicros: bigint): MessageReading {
    const captured = isoMicros(receivedMicros);
    let rows: Record<string, FieldValue>[];
    if (payload.length > JSON_LIMITS.maxBytes)
      return { records: [], badTimestamps: 0, unreadable: say('mqtt.message_too_large', 'larger than {limit} ({size})', { limit: describeBytes(JSON_LIMITS.maxBytes), size: describeBytes(payload.length) }) };
    if (this.config.payload_format === 'value') {
      rows = [{ [this.config.value_field]: plainValue(payload.toString('utf8')) }];
    } else {
      // Checked before parsing: flattening and JSON.stringify recurse, and a deep message would exhaust the stack.
      const problem = jsonTextProblem(payload);
      if (problem) return { records: [], badTimestamps: 0, unreadable: say('mqtt.message_json_problem', 'JSON {problem}', { problem }) };
      let parsed: unknown;
      try {
        parsed = JSON.parse(payload.toString('utf8'));
      } catch (cause) {
        return { records: [], badTimestamps: 0, unreadable: say('mqtt.message_not_json', 'not JSON ({error})', { error: (cause as Error).message }) };
      }
      const objects = Array.isArray(parsed) ? parsed : [parsed];
      if (objects.length === 0) return { records: [], badTimestamps: 0 };
      if (!objects.every((item) => item !== null && typeof item === 'object' && !Array.isArray(item)))
        return { records: [], badTimestamps: 0, unreadable: say('mqtt.message_not_objects', 'JSON, but not an object or a list of objects (use payload_format "value" for plain values)') };
      rows = objects.map((item) => flatten(item as Record<string, unknown>));
    }
    const out: MessageReading = { records: [], badTimestamps: 0 };
    const digest = messageDigest(this.stream, topic, payload);
    rows.forEach((fieldvalues, index) => {
      if (this.config.topic_field !== undefined) fieldvalues[this.config.topic_field] = topic;
      let timestamp = captured;
      if (this.readTimestamp) {
        const value = fieldvalues[this.config.timestamp_field!];
        const micros = this.readTimestamp(value);
        if (micros === undefined) {
          out.badTimestamps += 1;
          out.badTimestampExample ??= value === undefined ? '(missing)' : JSON.stringify(value);
        } else timestamp = isoMicros(micros);
      }
      out.records.push({
        asset: this.stream.asset,
        stream_type: this.stream.stream_type,
        timestamp,
        capturetime: captured,
        fieldvalues,
        record_id: recordId(digest, index, timestamp),
      });
    });
    return out;
  }
}

/** The message hashed once: each record's id derives from it, so a message costs time linear in its size. */
function messageDigest(stream: StreamKey, topic: string, payload: Buffer): Buffer {
  const hash = crypto.createHash('sha256');
  hash.update(`${stream.asset}\0${stream.stream_type}\0${topic}\0`);
  hash.update(payload);
  return hash.digest();
}

/**
 * The same message read again (a redelivery after a reconnect) gets the same id when its time stamp
 * comes from the message; with the time of receipt it cannot, and downstream sees two records.
 */
function recordId(digest: Buffer, index: number, timestamp: string): string {
  return crypto.createHash('sha256').update(digest).update(`\0${timestamp}\0${index}`).digest('hex').slice(0, 32);
}

/** A plain message: a number when it reads as one, true/false, else the text (empty: null). */
export function plainValue(text: string): FieldValue {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  if (NUMBER.test(trimmed)) {
    const number = Number(trimmed);
    if (Number.isFinite(number)) return number;
  }
  if (trimmed === 'true' || trimmed === 'false') return trimmed === 'true';
  return text;
}

/** Top-level scalars as they are, nested objects as `outer.inner`, arrays as JSON text. */
export function flatten(object: Record<string, unknown>, prefix = '', into: Record<string, FieldValue> = {}, depth = 0): Record<string, FieldValue> {
  for (const [key, value] of Object.entries(object)) {
    const name = prefix + key;
    if (value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') into[name] = value;
    else if (typeof value === 'object' && !Array.isArray(value) && depth < MAX_DEPTH) flatten(value as Record<string, unknown>, `${name}.`, into, depth + 1);
    else into[name] = JSON.stringify(value);
  }
  return into;
}

function timestampReader(config: MqttStreamConfig): (value: FieldValue | undefined) => bigint | undefined {
  const zone = config.timezone ?? 'UTC';
  if (config.timestamp_unit !== undefined) {
    const factor = MICROS_PER_UNIT[config.timestamp_unit];
    return (value) => {
      const number = typeof value === 'number' ? value : typeof value === 'string' && NUMBER.test(value.trim()) ? Number(value) : Number.NaN;
      const micros = number * factor;
      return Number.isFinite(micros) && Math.abs(micros) < 8.64e18 ? BigInt(Math.round(micros)) : undefined;
    };
  }
  const read = config.timestamp_format !== undefined ? strptimeReader(config.timestamp_format) : (text: string) => guessDateTime(text);
  return (value) => {
    if (typeof value !== 'string') return undefined;
    const wall = read(value.trim());
    return wall ? wallTimeToUtcMicros(wall, zone).micros : undefined;
  };
}
