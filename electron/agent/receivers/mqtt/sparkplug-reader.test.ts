import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { decodePayload } from '../../mqtt/sparkplug-decode.js';
import { tahu } from '../../../testing/sparkplug-host.js';
import { MAX_REMEMBERED_NODES, SparkplugReader, nodeFilter } from './sparkplug-reader.js';

const STREAM = { asset: 'Mixer_3', stream_type: 'state' };
const config = (topic = 'spBv1.0/Line3/DDATA/edge-9/Mixer_3') => ({ asset: 'Mixer_3', stream_type: 'state', topic, payload_format: 'sparkplug_b' as const, value_field: 'value' });
const T = Date.parse('2026-01-05T06:00:00Z');
const RECEIVED = BigInt(Date.parse('2026-01-05T07:00:00Z')) * 1000n;

function reader(topic?: string) {
  const sent: { topic: string; payload: Buffer }[] = [];
  const warnings: string[] = [];
  const r = new SparkplugReader(STREAM, config(topic), {
    publish: (t, payload) => sent.push({ topic: t, payload }),
    warn: (category, said) => warnings.push(`${category}: ${said.text}`),
    clear: () => undefined,
  });
  return { r, sent, warnings };
}

const encode = (payload: Parameters<typeof tahu.encodePayload>[0]) => Buffer.from(tahu.encodePayload(payload));
const nbirth = (seq = 0) => encode({ timestamp: T, seq, metrics: [{ name: 'bdSeq', type: 'Int64', value: 1 }] });
const dbirth = (seq: number) =>
  encode({
    timestamp: T,
    seq,
    metrics: [
      { name: 'speed', alias: 1, type: 'Double', value: 0 },
      { name: 'running', alias: 2, type: 'Boolean', value: false },
      { name: 'batch', alias: 3, type: 'String', value: '' },
    ],
  });

describe('Sparkplug B receiver (payloads made by Eclipse Tahu)', () => {
  it('turns DDATA metrics into records by time stamp, resolving aliases and types from the births', () => {
    const { r, sent } = reader();
    expect(r.read('spBv1.0/Line3/NBIRTH/edge-9', nbirth(), RECEIVED).records).toEqual([]);
    expect(r.read('spBv1.0/Line3/DBIRTH/edge-9/Mixer_3', dbirth(1), RECEIVED).records).toEqual([]);
    const payload = encode({ timestamp: T + 5000, seq: 2, metrics: [{ alias: 1, type: 'Double', value: 12.5, timestamp: T }, { alias: 2, type: 'Boolean', value: true, timestamp: T }] });
    const reading = r.read('spBv1.0/Line3/DDATA/edge-9/Mixer_3', payload, RECEIVED);
    expect(reading.unreadable).toBeUndefined();
    expect(reading.records.map((x) => [x.timestamp, x.fieldvalues])).toEqual([['2026-01-05T06:00:00.000000Z', { speed: 12.5, running: true }]]);
    const more = encode({ timestamp: T + 9000, seq: 3, metrics: [{ name: 'batch', type: 'String', value: 'B-1' }, { alias: 1, type: 'Double', value: 13, timestamp: T + 1000 }, { alias: 1, type: 'Double', value: 14, timestamp: T + 1000 }] });
    const two = r.read('spBv1.0/Line3/DDATA/edge-9/Mixer_3', more, RECEIVED).records;
    expect(two.map((x) => [x.timestamp, x.fieldvalues])).toEqual([
      ['2026-01-05T06:00:09.000000Z', { batch: 'B-1' }],
      ['2026-01-05T06:00:01.000000Z', { speed: 13 }],
      ['2026-01-05T06:00:01.000000Z', { speed: 14 }],
    ]);
    expect(new Set(two.map((x) => x.record_id)).size).toBe(3);
    expect(sent).toEqual([]);
  });

  it('reads every plain datatype, DateTime as ISO text, and compressed payloads', () => {
    const { r } = reader();
    r.read('spBv1.0/Line3/NBIRTH/edge-9', nbirth(), RECEIVED);
    const metrics = [
      { name: 'i8', type: 'Int8' as const, value: -5 },
      { name: 'i32', type: 'Int32' as const, value: -70000 },
      { name: 'i64', type: 'Int64' as const, value: -9_000_000_000 },
      { name: 'u32', type: 'UInt32' as const, value: 4_000_000_000 },
      { name: 'u64', type: 'UInt64' as const, value: 2 ** 40 },
      { name: 'f', type: 'Float' as const, value: 1.5 },
      { name: 'd', type: 'Double' as const, value: 2.25 },
      { name: 'b', type: 'Boolean' as const, value: true },
      { name: 's', type: 'String' as const, value: 'Ä€' },
      { name: 't', type: 'DateTime' as const, value: T },
      { name: 'n', type: 'Int32' as const, value: null },
    ];
    const plain = encode({ timestamp: T, seq: 1, metrics });
    const values = r.read('spBv1.0/Line3/DDATA/edge-9/Mixer_3', plain, RECEIVED).records[0]!.fieldvalues;
    expect(values).toEqual({ i8: -5, i32: -70000, i64: -9_000_000_000, u32: 4_000_000_000, u64: 2 ** 40, f: 1.5, d: 2.25, b: true, s: 'Ä€', t: '2026-01-05T06:00:00.000Z', n: null });
    const compressed = encode({ uuid: 'SPBV1.0_COMPRESSED', seq: 2, body: gzipSync(plain), metrics: [{ name: 'algorithm', type: 'String', value: 'GZIP' }] });
    expect(r.read('spBv1.0/Line3/DDATA/edge-9/Mixer_3', compressed, RECEIVED).records[0]!.fieldvalues).toEqual(values);
  });

  it('asks for a rebirth once per seq gap, and when data comes from a node whose birth it did not see', () => {
    const { r, sent, warnings } = reader();
    const data = (seq: number) => encode({ timestamp: T, seq, metrics: [{ name: 'speed', type: 'Double', value: seq }] });
    expect(r.read('spBv1.0/Line3/DDATA/edge-9/Mixer_3', data(4), RECEIVED).records).toHaveLength(1);
    expect(sent.map((s) => s.topic)).toEqual(['spBv1.0/Line3/NCMD/edge-9']);
    const command = decodePayload(sent[0]!.payload).metrics[0]!;
    expect([command.name, command.booleanValue]).toEqual(['Node Control/Rebirth', true]);
    expect(tahu.decodePayload(sent[0]!.payload).metrics![0]).toMatchObject({ name: 'Node Control/Rebirth', type: 'Boolean', value: true });
    r.read('spBv1.0/Line3/DDATA/edge-9/Mixer_3', data(5), RECEIVED);
    expect(sent).toHaveLength(1);
    r.read('spBv1.0/Line3/NBIRTH/edge-9', nbirth(0), RECEIVED);
    for (const seq of [1, 2, 3]) r.read('spBv1.0/Line3/DDATA/edge-9/Mixer_3', data(seq), RECEIVED);
    expect(sent).toHaveLength(1);
    // 4 and 5 lost: one gap, one request, however many messages follow it.
    for (const seq of [6, 7, 9]) r.read('spBv1.0/Line3/DDATA/edge-9/Mixer_3', data(seq), RECEIVED);
    expect(sent).toHaveLength(2);
    expect(warnings.at(-1)).toContain('expected 4, got 6');
    r.read('spBv1.0/Line3/NBIRTH/edge-9', nbirth(0), RECEIVED);
    // seq wraps from 255 to 0 without a gap.
    for (let seq = 1; seq <= 300; seq += 1) r.read('spBv1.0/Line3/DDATA/edge-9/Mixer_3', data(seq % 256), RECEIVED);
    expect(sent).toHaveLength(2);
  });

  it('skips what is not a Sparkplug payload with the reason, bounded in time and depth', () => {
    const { r } = reader();
    const hostile: Buffer[] = [
      Buffer.from('{"not":"protobuf"}'),
      Buffer.from([0x12, 0xff, 0xff, 0xff, 0xff, 0x0f]), // a metric claiming 4 GiB
      Buffer.from([0x08, ...Array(20).fill(0xff)]), // an endless varint
      Buffer.from([0x13, 0x00]), // a group (wire type 3)
      encode({ uuid: 'SPBV1.0_COMPRESSED', body: Buffer.from('not deflate'), metrics: [] }),
      encode({ uuid: 'SPBV1.0_COMPRESSED', body: gzipSync(Buffer.alloc(17 << 20), { level: 1 }), metrics: [{ name: 'algorithm', type: 'String', value: 'GZIP' }] }),
    ];
    // 100 000 nested DataSet/Template levels: skipped unread, not recursed into.
    const nested = nestedMessages(100_000);
    hostile.push(Buffer.concat([Buffer.from([0x12]), varint(nested.length + 3), Buffer.from([0x0a, 0x01, 0x78]), nested]));
    const started = Date.now();
    for (const payload of hostile) {
      const reading = r.read('spBv1.0/Line3/DDATA/edge-9/Mixer_3', payload, RECEIVED);
      expect(reading.records.length === 0 || reading.unreadable === undefined).toBe(true);
    }
    expect(hostile.slice(0, 6).map((p) => r.read('spBv1.0/Line3/DDATA/edge-9/Mixer_3', p, RECEIVED).unreadable?.text)).toEqual(hostile.slice(0, 6).map(() => expect.stringContaining('not a Sparkplug B payload')));
    for (let i = 0; i < 2000; i += 1) {
      const random = Buffer.from(Array.from({ length: 1 + (i % 200) }, (_, k) => (i * 31 + k * 17 + ((i * k) % 7)) & 0xff));
      r.read('spBv1.0/Line3/DDATA/edge-9/Mixer_3', random, RECEIVED);
    }
    expect(Date.now() - started).toBeLessThan(20_000);
  });
});

function varint(n: number): Buffer {
  const out: number[] = [];
  let v = n;
  while (v >= 0x80) {
    out.push((v & 0x7f) | 0x80);
    v >>>= 7;
  }
  out.push(v);
  return Buffer.from(out);
}

/** Field 18 (Template) inside field 18, `depth` times: written outside in, in one buffer. */
function nestedMessages(depth: number): Buffer {
  const sizes = [0];
  for (let i = 0; i < depth; i += 1) sizes.push(2 + varint(sizes[i]!).length + sizes[i]!);
  const parts: Buffer[] = [];
  for (let i = depth - 1; i >= 0; i -= 1) parts.push(Buffer.from([0x92, 0x01]), varint(sizes[i]!));
  return Buffer.concat(parts);
}

describe('Sparkplug B receiver: bounds', () => {
  it('subscribes to node topics MQTT accepts, whatever wildcard the stream topic ends with', () => {
    expect(nodeFilter('spBv1.0/Line3/DDATA/edge-9/Mixer_3')).toBe('spBv1.0/Line3/+/edge-9/#');
    expect(nodeFilter('spBv1.0/Line3/DDATA/+/Mixer_3')).toBe('spBv1.0/Line3/+/+/#');
    expect(nodeFilter('spBv1.0/Line3/DDATA/#')).toBe('spBv1.0/Line3/#');
    expect(nodeFilter('spBv1.0/Line3/#')).toBe('spBv1.0/Line3/#');
    expect(nodeFilter('spBv1.0/#')).toBe('spBv1.0/#');
    for (const topic of ['spBv1.0/Line3/DDATA/#', 'spBv1.0/Line3/DDATA/edge-9/#', 'spBv1.0/+/DDATA/+/+'])
      expect(nodeFilter(topic).split('/').slice(0, -1), topic).not.toContain('#');
  });

  it('remembers a bounded number of nodes: a publisher inventing names forgets the oldest, which is asked to rebirth', () => {
    const { r, sent } = reader('spBv1.0/Line3/DDATA/#');
    const data = (seq: number) => encode({ timestamp: T, seq, metrics: [{ name: 'speed', type: 'Double', value: seq }] });
    r.read('spBv1.0/Line3/NBIRTH/edge-0', nbirth(0), RECEIVED);
    r.read('spBv1.0/Line3/DDATA/edge-0/Mixer_3', data(1), RECEIVED);
    expect(sent).toHaveLength(0);
    for (let n = 1; n <= MAX_REMEMBERED_NODES; n += 1) r.read(`spBv1.0/Line3/NBIRTH/invented-${n}`, nbirth(0), RECEIVED);
    expect(sent).toHaveLength(0);
    // edge-0's birth was forgotten: its next data is read, and it is asked for a rebirth.
    expect(r.read('spBv1.0/Line3/DDATA/edge-0/Mixer_3', data(2), RECEIVED).records).toHaveLength(1);
    expect(sent.map((s) => s.topic)).toEqual(['spBv1.0/Line3/NCMD/edge-0']);
  });
});
