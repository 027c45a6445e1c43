import { describe, expect, it } from 'vitest';
import { MqttStreamSchema } from '../../../../shared/config/mqtt-schema.js';
import { MessageReader, flatten, plainValue } from './message-records.js';

const RECEIVED = 1_767_600_000_000_000n; // 2026-01-05T08:00:00Z
const reader = (options: Record<string, unknown> = {}) =>
  new MessageReader({ asset: 'Press_1', stream_type: 'process' }, MqttStreamSchema.parse({ asset: 'Press_1', stream_type: 'process', topic: 'plant1/#', ...options }));
const read = (options: Record<string, unknown>, payload: string, topic = 'plant1/press1/process') => reader(options).read(topic, Buffer.from(payload), RECEIVED);

describe('MQTT messages to records', () => {
  it('reads a JSON object: scalars become columns, nested objects are flattened with dots, arrays kept as JSON', () => {
    const { records } = read({}, '{"temp": 81.5, "ok": true, "state": "Running", "none": null, "motor": {"rpm": 1200, "axis": {"x": 1}}, "list": [1, 2]}');
    expect(records).toHaveLength(1);
    expect(records[0]!.fieldvalues).toEqual({ temp: 81.5, ok: true, state: 'Running', none: null, 'motor.rpm': 1200, 'motor.axis.x': 1, list: '[1,2]' });
    expect(records[0]).toMatchObject({ asset: 'Press_1', stream_type: 'process', timestamp: '2026-01-05T08:00:00.000000Z', capturetime: '2026-01-05T08:00:00.000000Z' });
  });

  it('reads a JSON array of objects as one record each, with distinct ids', () => {
    const { records } = read({ timestamp_field: 'ts', timestamp_unit: 'ms' }, '[{"ts": 1767600000000, "v": 1}, {"ts": 1767600001000, "v": 2}]');
    expect(records.map((r) => [r.timestamp, r.fieldvalues.v])).toEqual([
      ['2026-01-05T08:00:00.000000Z', 1],
      ['2026-01-05T08:00:01.000000Z', 2],
    ]);
    expect(new Set(records.map((r) => r.record_id)).size).toBe(2);
  });

  it('reads a plain value into the named column, and the topic into topic_field', () => {
    const cases: [string, unknown][] = [
      ['21.5', 21.5],
      ['-3e2', -300],
      ['true', true],
      ['Running', 'Running'],
      ['  ', null],
    ];
    for (const [payload, value] of cases) {
      const { records } = read({ payload_format: 'value', value_field: 'temperature', topic_field: 'topic' }, payload);
      expect(records[0]!.fieldvalues).toEqual({ temperature: value, topic: 'plant1/press1/process' });
    }
  });

  it.each([
    [{ timestamp_unit: 's' }, 1767600000.25, '2026-01-05T08:00:00.250000Z'],
    [{ timestamp_unit: 'us' }, '1767600000000001', '2026-01-05T08:00:00.000001Z'],
    [{ timestamp_unit: 'ns' }, 1767600000000000000, '2026-01-05T08:00:00.000000Z'],
    [{ timestamp_format: '%d.%m.%Y %H:%M:%S', timezone: 'Europe/Berlin' }, '05.01.2026 09:00:00', '2026-01-05T08:00:00.000000Z'],
    [{}, '2026-01-05T09:00:00.5+01:00', '2026-01-05T08:00:00.500000Z'],
    [{}, '2026-01-05 08:00:00', '2026-01-05T08:00:00.000000Z'],
  ])('reads the time stamp with %j from %j', (options, value, iso) => {
    const { records, badTimestamps } = read({ timestamp_field: 'meta.time', ...options }, JSON.stringify({ meta: { time: value }, v: 1 }));
    expect(badTimestamps).toBe(0);
    expect(records[0]!.timestamp).toBe(iso);
    expect(records[0]!.fieldvalues['meta.time']).toEqual(value);
  });

  it('uses the time of receipt for a missing or unreadable time stamp, and says so', () => {
    const outcome = read({ timestamp_field: 'ts', timestamp_unit: 'ms' }, '[{"ts": "soon"}, {"v": 2}]');
    expect(outcome.records.map((r) => r.timestamp)).toEqual(['2026-01-05T08:00:00.000000Z', '2026-01-05T08:00:00.000000Z']);
    expect(outcome).toMatchObject({ badTimestamps: 2, badTimestampExample: '"soon"' });
  });

  it('refuses what is not JSON or not objects, with the reason', () => {
    expect(read({}, 'temp=5').unreadable?.text).toContain('not JSON');
    expect(read({}, '[1, 2]').unreadable?.text).toContain('payload_format "value"');
    expect(read({}, '"text"').unreadable?.text).toContain('not an object');
    expect(read({}, '[]')).toEqual({ records: [], badTimestamps: 0 });
  });

  it('gives a message read again the same record ids when its time stamp comes from the message', () => {
    const payload = '{"ts": 1767600000000, "v": 1}';
    const first = reader({ timestamp_field: 'ts', timestamp_unit: 'ms' }).read('a/b', Buffer.from(payload), RECEIVED);
    const again = reader({ timestamp_field: 'ts', timestamp_unit: 'ms' }).read('a/b', Buffer.from(payload), RECEIVED + 5_000_000n);
    expect(again.records[0]!.record_id).toBe(first.records[0]!.record_id);
    const otherTopic = reader({ timestamp_field: 'ts', timestamp_unit: 'ms' }).read('a/c', Buffer.from(payload), RECEIVED);
    expect(otherTopic.records[0]!.record_id).not.toBe(first.records[0]!.record_id);
  });

  it('keeps objects nested deeper than 8 levels as JSON text', () => {
    let deep: Record<string, unknown> = { leaf: 1 };
    for (let i = 0; i < 10; i += 1) deep = { n: deep };
    const columns = Object.keys(flatten(deep));
    expect(columns).toHaveLength(1);
    expect(columns[0]!.split('.').length).toBe(9);
    expect(plainValue('0x10')).toBe('0x10');
  });
});
