import { createRequire } from 'node:module';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { AgentRecord, FieldValue } from '../../../../shared/records/record.js';
import { payloadWith } from '../../mqtt/sparkplug-codec.js';
import { MQTT_OUTBOX } from './mqtt-outbox.js';
import { readSparkplugBatch } from './sparkplug-outbox.js';

// Eclipse Tahu's codec: the independent reader of what Tributary writes.
const tahu = (createRequire(import.meta.url)('sparkplug-payload') as typeof import('sparkplug-payload')).get('spBv1.0')!;

function record(timestamp: string, fieldvalues: Record<string, FieldValue>): AgentRecord {
  return { asset: 'Mixer 3', stream_type: 'state', timestamp, capturetime: timestamp, fieldvalues, record_id: 'r' };
}

const options = (extra: Record<string, unknown> = {}) => MQTT_OUTBOX.options({ payload_format: 'sparkplug_b', ...extra });

type Long = { toNumber(): number; toSigned(): Long };
/**
 * Tahu gives 64-bit numbers as Long objects; an Int64 travels as two's complement in the proto's
 * uint64 field, which this Tahu build leaves unsigned when its Long class is another copy.
 */
function plain(value: unknown, type?: string): unknown {
  if (value === null || typeof value !== 'object' || !('toNumber' in value)) return value;
  return type === 'Int64' ? (value as Long).toSigned().toNumber() : (value as Long).toNumber();
}

function tahuMetrics(payload: Buffer, seq = 7) {
  const batch = readSparkplugBatch(payload);
  return tahu.decodePayload(payloadWith(batch.body, 1_700_000_000_000, seq));
}

describe('Sparkplug B outbox, read by Eclipse Tahu', () => {
  it('writes each field as a metric with its datatype, value and the record time stamp', () => {
    const records = [
      record('2026-01-05T06:00:00.123000Z', { count: 42, speed: 1.5, on: true, batch: 'B-17', started: '2026-01-05T05:00:00.000000Z', empty: null, neg: -9_007_199_254_740 }),
      record('2026-01-05T06:00:01.000000Z', { count: -3, speed: 2, on: false, batch: 'Ä€', started: '2026-01-05T05:30:00Z', empty: null, neg: 0 }),
    ];
    const [batch] = MQTT_OUTBOX.encode(records, options());
    const decoded = tahuMetrics(batch!.payload);
    expect(plain(decoded.seq)).toBe(7);
    expect(plain(decoded.timestamp)).toBe(1_700_000_000_000);
    const rows = decoded.metrics!.map((m) => [m.name, m.type, plain(m.value, m.type), plain(m.timestamp)]);
    const t1 = Date.parse('2026-01-05T06:00:00.123Z');
    const t2 = Date.parse('2026-01-05T06:00:01Z');
    expect(rows).toEqual([
      ['count', 'Int64', 42, t1],
      ['speed', 'Double', 1.5, t1],
      ['on', 'Boolean', true, t1],
      ['batch', 'String', 'B-17', t1],
      ['started', 'DateTime', Date.parse('2026-01-05T05:00:00Z'), t1],
      ['empty', 'String', null, t1],
      ['neg', 'Int64', -9_007_199_254_740, t1],
      ['count', 'Int64', -3, t2],
      ['speed', 'Double', 2, t2],
      ['on', 'Boolean', false, t2],
      ['batch', 'String', 'Ä€', t2],
      ['started', 'DateTime', Date.parse('2026-01-05T05:30:00Z'), t2],
      ['empty', 'String', null, t2],
      ['neg', 'Int64', 0, t2],
    ]);
  });

  it('gives a field of mixed kinds one type: numbers Double, anything else with text String', () => {
    const [batch] = MQTT_OUTBOX.encode([record('2026-01-05T06:00:00Z', { a: 1, b: 1 }), record('2026-01-05T06:00:01Z', { a: 1.25, b: 'n/a' })], options());
    const metrics = tahuMetrics(batch!.payload).metrics!;
    expect(metrics.map((m) => [m.name, m.type, m.value])).toEqual([
      ['a', 'Double', 1],
      ['b', 'String', '1'],
      ['a', 'Double', 1.25],
      ['b', 'String', 'n/a'],
    ]);
    expect(readSparkplugBatch(batch!.payload).metrics.map(([name, type]) => [name, type])).toEqual([
      ['a', 10],
      ['b', 12],
    ]);
  });

  it('splits by max_request_records and max_request_size_bytes, and reads its records back for KPIs', () => {
    const records = Array.from({ length: 25 }, (_, i) => record(`2026-01-05T06:00:${String(i).padStart(2, '0')}.000000Z`, { i, text: 'x'.repeat(100) }));
    const byCount = MQTT_OUTBOX.encode(records, options({ max_request_records: 10 }));
    expect(byCount.map((b) => b.records)).toEqual([10, 10, 5]);
    const bySize = MQTT_OUTBOX.encode(records, options({ max_request_size_bytes: 1024 }));
    expect(bySize.length).toBeGreaterThan(3);
    for (const b of bySize) expect(readSparkplugBatch(b.payload).body.length).toBeLessThanOrEqual(1024);
    expect(bySize.reduce((n, b) => n + b.records, 0)).toBe(25);
    // Each batch says where each field's last value is: what the device's next DBIRTH carries.
    let end = 0;
    for (const b of bySize) {
      end += b.records;
      const stored = readSparkplugBatch(b.payload);
      const lastValues = stored.metrics.map(([name, , s, e]) => [name, plain(tahu.decodePayload(payloadWith(stored.body.subarray(s, e), 0, 0)).metrics![0]!.value)]);
      expect(lastValues).toEqual([
        ['i', end - 1],
        ['text', 'x'.repeat(100)],
      ]);
    }
    const back = bySize.flatMap((b) => MQTT_OUTBOX.decode(b.payload));
    expect(back.map((r) => [r.timestamp, r.fieldvalues.i])).toEqual(records.map((r) => [r.timestamp, r.fieldvalues.i]));
    expect(back[0]).toMatchObject({ asset: 'Mixer 3', stream_type: 'state' });
  });

  it('stores the batch gzip-compressed, and still reads batches stored uncompressed before', () => {
    const records = Array.from({ length: 200 }, (_, i) => record(`2026-01-05T06:${String(Math.floor(i / 60)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}.000000Z`, { i, temp: 180 + (i % 9) / 10, state: 'ok' }));
    const [batch] = MQTT_OUTBOX.encode(records, options());
    const stored = readSparkplugBatch(batch!.payload);
    // Compressed: several times smaller than the metrics it holds.
    expect(batch!.payload.length * 3).toBeLessThan(stored.body.length);
    // The form of before this change: "SPB\x01" and the same bytes, not compressed.
    const before = Buffer.concat([Buffer.from('SPB\x01', 'latin1'), gunzipSync(batch!.payload.subarray(4))]);
    expect(readSparkplugBatch(before)).toEqual(stored);
    expect(MQTT_OUTBOX.decode(before)).toEqual(MQTT_OUTBOX.decode(batch!.payload));
    expect(MQTT_OUTBOX.decode(before)).toHaveLength(200);
  });
});
