/**
 * Whatever a publisher sends, reading a message returns records or a reason (issue 39): never an
 * exception, whatever its nesting or size, so that the message can be acknowledged and skipped.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MqttStreamSchema } from '../../../../shared/config/mqtt-schema.js';
import { JSON_LIMITS, boundedJsonText, jsonTextProblem } from '../../decoding/bounded-json.js';
import { MessageReader } from './message-records.js';

const RECEIVED = 1_767_600_000_000_000n;
const reader = (options: Record<string, unknown> = {}) =>
  new MessageReader({ asset: 'Press_1', stream_type: 'process' }, MqttStreamSchema.parse({ asset: 'Press_1', stream_type: 'process', topic: 'plant1/#', ...options }));
const nested = (open: string, close: string, levels: number, inner = '1') => open.repeat(levels) + inner + close.repeat(levels);

describe('MQTT messages beyond the bounds', () => {
  it('skips a message of 6,000 nested lists with a reason, and reads the next one', () => {
    const message = reader();
    const hostile = message.read('plant1/press1', Buffer.from(`{"a":${nested('[', ']', 6000)}}`), RECEIVED);
    expect(hostile).toEqual({ records: [], badTimestamps: 0, unreadable: expect.objectContaining({ code: 'mqtt.message_json_problem', text: `JSON nested deeper than ${JSON_LIMITS.maxDepth} levels` }) });
    expect(message.read('plant1/press1', Buffer.from('{"v": 1}'), RECEIVED).records[0]!.fieldvalues).toEqual({ v: 1 });
  });

  it('skips deep objects and deep lists alike, but reads a message nested up to the limit', () => {
    const depth = JSON_LIMITS.maxDepth;
    expect(reader().read('t', Buffer.from(nested('{"n":', '}', depth)), RECEIVED).unreadable).toBeUndefined();
    expect(reader().read('t', Buffer.from(nested('{"n":', '}', depth + 1)), RECEIVED).unreadable?.text).toMatch(/nested deeper/);
    expect(reader().read('t', Buffer.from(`[${nested('{"n":', '}', depth + 1)}]`), RECEIVED).unreadable?.text).toMatch(/nested deeper/);
    // Brackets inside texts are no nesting.
    const text = JSON.stringify({ note: '['.repeat(10_000) });
    expect(reader().read('t', Buffer.from(text), RECEIVED).records[0]!.fieldvalues.note).toHaveLength(10_000);
  });

  it('skips a message larger than the size bound, in either payload format', () => {
    const big = Buffer.alloc(JSON_LIMITS.maxBytes + 1, 0x20);
    expect(reader().read('t', big, RECEIVED).unreadable?.text).toMatch(/^larger than 16 MiB/);
    expect(reader({ payload_format: 'value', value_field: 'v' }).read('t', big, RECEIVED).unreadable?.text).toMatch(/^larger than 16 MiB/);
  });

  it('gives every record of a list its own id, the same again for the same message', () => {
    const payload = Buffer.from(JSON.stringify(Array.from({ length: 2000 }, (_, i) => ({ ts: 1767600000000 + i, v: i }))));
    const options = { timestamp_field: 'ts', timestamp_unit: 'ms' };
    const first = reader(options).read('t', payload, RECEIVED).records.map((r) => r.record_id);
    expect(new Set(first).size).toBe(2000);
    expect(reader(options).read('t', payload, RECEIVED + 1000n).records.map((r) => r.record_id)).toEqual(first);
  });

  it('never throws, whatever JSON or bytes arrive (property)', () => {
    const deepValue = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, fc.jsonValue({ maxDepth: 3 }), fc.array(tie('value'), { maxLength: 2 }), fc.dictionary(fc.string(), tie('value'), { maxKeys: 2 })),
    })).value;
    const message = reader({ timestamp_field: 'ts' });
    fc.assert(
      fc.property(fc.oneof(deepValue.map((v) => JSON.stringify(v) ?? 'null'), fc.string(), fc.integer({ min: 0, max: 3000 }).map((n) => nested('[', ']', n))), (text) => {
        const outcome = message.read('plant1/x', Buffer.from(text), RECEIVED);
        expect(outcome.records.length > 0 || outcome.unreadable !== undefined || text.trim() === '[]').toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

describe('bounded JSON', () => {
  it('measures nesting in text without recursion, and in values a driver built', () => {
    expect(jsonTextProblem(nested('[', ']', 1_000_000))).toMatch(/nested deeper/);
    expect(jsonTextProblem('{"a": "[[[[["}')).toBeUndefined();
    expect(jsonTextProblem('{"a": "\\"[[[[["}')).toBeUndefined();
    expect(boundedJsonText(JSON.parse(nested('[', ']', 6000)))).toEqual({ problem: `nested deeper than ${JSON_LIMITS.maxDepth} levels` });
    expect(boundedJsonText({ a: [1, { b: 2n }] })).toEqual({ text: '{"a":[1,{"b":"2"}]}' });
  });

  it('agrees with JSON.stringify for every value within the bounds (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), (value) => {
        expect(boundedJsonText(value)).toEqual({ text: JSON.stringify(value) });
        expect(jsonTextProblem(JSON.stringify(value))).toBeUndefined();
      }),
    );
  });
});
