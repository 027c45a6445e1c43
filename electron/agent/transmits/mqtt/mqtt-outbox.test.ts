import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AgentRecord } from '../../../../shared/records/record.js';
import { MQTT_OUTBOX, arrayMessages, isArrayPayload, messageText, payloadLines, recordArrays } from './mqtt-outbox.js';

const record = (i: number, text = 'ok'): AgentRecord => ({
  asset: 'Press_1',
  stream_type: 'cycle',
  timestamp: `2026-01-05T06:00:0${i % 10}.000000Z`,
  capturetime: '2026-01-05T06:00:10.123456Z',
  record_id: `r${i}`,
  fieldvalues: { part: i, note: text },
});
const records = (n: number) => Array.from({ length: n }, (_, i) => record(i));
const options = (config: Record<string, unknown>) => MQTT_OUTBOX.options(config);

describe('mqtt outbox codec', () => {
  it('stores one message per record as lines, line breaks in values escaped, additional_fields in each', () => {
    const [batch, ...rest] = MQTT_OUTBOX.encode([record(0, 'line\none'), record(1)], options({ message_format: 'record', additional_fields: { site: 'Plant 1' } }));
    expect(rest).toEqual([]);
    expect(isArrayPayload(messageText(batch!.payload))).toBe(false);
    const lines = payloadLines(messageText(batch!.payload)).map((line) => JSON.parse(line.toString('utf8')));
    expect(lines).toEqual([
      { ...record(0, 'line\none'), site: 'Plant 1' },
      { ...record(1), site: 'Plant 1' },
    ]);
    expect(MQTT_OUTBOX.decode(batch!.payload)).toEqual([record(0, 'line\none'), record(1)]);
  });

  it('stores JSON arrays of at most max_request_records records and max_request_size_bytes bytes', () => {
    const byCount = MQTT_OUTBOX.encode(records(25), options({ message_format: 'array', max_request_records: 10 }));
    expect(byCount.map((b) => b.records)).toEqual([10, 10, 5]);
    expect(byCount.every((b) => isArrayPayload(messageText(b.payload)))).toBe(true);
    expect(byCount.flatMap((b) => MQTT_OUTBOX.decode(b.payload))).toEqual(records(25));
    expect(byCount[1]!.first.record_id).toBe('r10');
    expect(byCount[1]!.last.record_id).toBe('r19');

    const one = Buffer.byteLength(JSON.stringify(record(0)));
    const bySize = MQTT_OUTBOX.encode(records(9), options({ message_format: 'array', max_request_records: 1000, max_request_size_bytes: one * 3 + 10 }));
    expect(bySize.map((b) => b.records)).toEqual([3, 3, 3]);
    for (const batch of bySize) expect(messageText(batch.payload).length).toBeLessThanOrEqual(one * 3 + 10);
  });

  it('sends a record bigger than max_request_size_bytes alone rather than never', () => {
    const big = record(1, 'x'.repeat(5000));
    const out = MQTT_OUTBOX.encode([record(0), big, record(2)], options({ message_format: 'array', max_request_size_bytes: 1024 }));
    expect(out.map((b) => b.records)).toEqual([1, 1, 1]);
    expect(MQTT_OUTBOX.decode(out[1]!.payload)).toEqual([big]);
  });

  it('stores the text compressed, and still reads payloads stored uncompressed before', () => {
    const batch = MQTT_OUTBOX.encode(records(200), options({ message_format: 'array' }))[0]!;
    const text = messageText(batch.payload);
    expect(JSON.parse(text.toString('utf8'))).toEqual(records(200));
    expect(batch.payload.length).toBeLessThan(text.length / 4);
    expect(MQTT_OUTBOX.decode(text)).toEqual(records(200));
    expect(MQTT_OUTBOX.decode(Buffer.from(records(3).map((r) => JSON.stringify(r)).join('\n')))).toEqual(records(3));
  });

  it('groups stored lines into arrays when message_format changed to array after they were stored', () => {
    const [batch] = MQTT_OUTBOX.encode(records(5), options({ message_format: 'record' }));
    const join = (parts: Buffer[]) => Buffer.from(`[${parts.map((p) => p.toString()).join(',')}]`);
    const messages = arrayMessages(payloadLines(messageText(batch!.payload)), (line) => line.length, join, 2, 1 << 20);
    expect(messages.map((m) => m.records)).toEqual([2, 2, 1]);
    expect(messages.flatMap((m) => JSON.parse(m.text.toString()))).toEqual(records(5));
  });

  it('makes the same array messages, byte for byte, as one text per record would (fast path)', () => {
    const key = fc.oneof(fc.constantFrom('asset', 'record_id', '__proto__', '1', '07', 'site', 'line'), fc.string({ maxLength: 6 }));
    const value = fc.oneof(fc.double(), fc.integer(), fc.string({ maxLength: 30 }), fc.boolean(), fc.constant(null));
    const arbitraryRecord = fc.record({
      asset: fc.constantFrom('Press_1', 'Ofen "2"', 'Linie\n3'),
      stream_type: fc.constantFrom('cycle', 'ä'),
      timestamp: fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString().replace('Z', '000Z')),
      capturetime: fc.constant('2026-01-05T06:00:10.123456Z'),
      record_id: fc.string({ maxLength: 40 }),
      fieldvalues: fc.dictionary(fc.string({ maxLength: 8 }), value, { maxKeys: 6 }),
    });
    fc.assert(
      // maxBytes: at random, or within a byte of what the first group needs (where an off-by-one would show).
      fc.property(fc.array(arbitraryRecord, { minLength: 1, maxLength: 60 }), fc.dictionary(key, value, { maxKeys: 3 }), fc.integer({ min: 1, max: 20 }), fc.oneof(fc.integer({ min: 50, max: 4000 }), fc.integer({ min: -2, max: 2 }).map((d) => ({ d }))), (batch, additional, maxRecords, bytes) => {
        const unbounded = options({ message_format: 'array', additional_fields: additional, max_request_records: maxRecords, max_request_size_bytes: 1 << 30 });
        const maxBytes = typeof bytes === 'number' ? bytes : messageText(recordArrays(batch, unbounded)[0]!.payload).length + bytes.d;
        const o = { ...unbounded, maxBytes };
        const fast = MQTT_OUTBOX.encode(batch, o);
        const general = recordArrays(batch, o);
        expect(fast.map((b) => messageText(b.payload).toString('utf8'))).toEqual(general.map((b) => messageText(b.payload).toString('utf8')));
        expect(fast.map((b) => [b.records, b.first, b.last])).toEqual(general.map((b) => [b.records, b.first, b.last]));
      }),
      { numRuns: 300 },
    );
  });
});
