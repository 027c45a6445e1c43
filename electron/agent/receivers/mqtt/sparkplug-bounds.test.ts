/**
 * Issue 50 point 2: what a Sparkplug reader remembers of births is bounded whatever a publisher
 * invents (devices, aliases, name sizes), and a death or rebirth forgets what came before it.
 */
import v8 from 'node:v8';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { tahu } from '../../../testing/sparkplug-host.js';
import { SparkplugReader } from './sparkplug-reader.js';
import { MAX_DEVICES_PER_NODE, MAX_REMEMBERED_ENTRIES, MAX_REMEMBERED_NAME_CHARS } from './sparkplug-names.js';

/** The heap after a full collection: what is kept, not what is garbage yet. */
function heapKept(): number {
  v8.setFlagsFromString('--expose-gc');
  (vm.runInNewContext('gc') as () => void)();
  return process.memoryUsage().heapUsed;
}

const STREAM = { asset: 'Mixer_3', stream_type: 'state' };
const T = Date.parse('2026-01-05T06:00:00Z');
const RECEIVED = BigInt(Date.parse('2026-01-05T07:00:00Z')) * 1000n;

function reader(topic = 'spBv1.0/Line3/DDATA/#') {
  const warnings: string[] = [];
  const sent: string[] = [];
  const r = new SparkplugReader(STREAM, { ...STREAM, topic, payload_format: 'sparkplug_b' as const, value_field: 'value' }, {
    publish: (t) => sent.push(t),
    warn: (category, said) => warnings.push(`${category}: ${said.text}`),
    clear: () => undefined,
  });
  return { r, warnings, sent };
}

const encode = (payload: Parameters<typeof tahu.encodePayload>[0]) => Buffer.from(tahu.encodePayload(payload));

function varint(n: number): number[] {
  const out: number[] = [];
  let v = n;
  while (v >= 0x80) {
    out.push((v & 0x7f) | 0x80);
    v = Math.floor(v / 128);
  }
  out.push(v);
  return out;
}

/** A birth of `count` Double metrics `m<i>` with aliases, written directly (Tahu is slow at 100 000). */
function hugeBirth(seq: number | undefined, count: number, longName?: number): Buffer {
  const parts: Buffer[] = [Buffer.from([0x08, ...varint(T), ...(seq === undefined ? [] : [0x18, ...varint(seq)])])];
  const metric = (name: Buffer, alias: number) => {
    const body = Buffer.concat([Buffer.from([0x0a, ...varint(name.length)]), name, Buffer.from([0x10, ...varint(alias), 0x20, 10])]);
    parts.push(Buffer.from([0x12, ...varint(body.length)]), body);
  };
  for (let i = 0; i < count; i += 1) metric(Buffer.from(`m${i}`), i);
  if (longName !== undefined) metric(Buffer.alloc(longName, 0x61), count);
  return Buffer.concat(parts);
}

const nbirth = (bdSeq = 1) => encode({ timestamp: T, seq: 0, metrics: [{ name: 'bdSeq', type: 'Int64', value: bdSeq }] });
const dbirth = (seq: number) => encode({ timestamp: T, seq, metrics: [{ name: 'speed', alias: 1, type: 'Double', value: 0 }] });
const ddata = (seq: number, value = 12.5) => encode({ timestamp: T, seq, metrics: [{ alias: 1, type: 'Double', value }] });

describe('Sparkplug B receiver: state bounded against invented births', () => {
  it('16 births of 100 000 aliases for invented devices plus a 15 MB name: memory stays bounded, the real device still reads', () => {
    const { r, warnings } = reader();
    const heapBefore = heapKept();
    const started = Date.now();
    r.read('spBv1.0/Line3/NBIRTH/edge-9', nbirth(), RECEIVED);
    // One payload (without seq) for all: the reader learns each birth anew.
    const huge = hugeBirth(undefined, 100_000);
    for (let i = 0; i < 16; i += 1) {
      r.read(`spBv1.0/Line3/DBIRTH/edge-9/invented-${i}`, i === 8 ? hugeBirth(undefined, 0, 15 << 20) : huge, RECEIVED);
      const totals = r.remembered;
      expect(totals.entries).toBeLessThanOrEqual(MAX_REMEMBERED_ENTRIES);
      expect(totals.chars).toBeLessThanOrEqual(MAX_REMEMBERED_NAME_CHARS);
    }
    // The real device is born after the flood and reads its aliases.
    r.read('spBv1.0/Line3/DBIRTH/edge-9/Mixer_3', dbirth(1), RECEIVED);
    const reading = r.read('spBv1.0/Line3/DDATA/edge-9/Mixer_3', ddata(2), RECEIVED);
    expect(reading.records.map((x) => x.fieldvalues)).toEqual([{ speed: 12.5 }]);
    // Linear in what was sent (1.5 million aliases), on a busy machine too.
    expect(Date.now() - started).toBeLessThan(30_000);
    // 6 million aliases took 1.4 GB before the bound (~23 MB a birth); what is kept now is at most
    // MAX_REMEMBERED_ENTRIES entries.
    const kept = heapKept() - heapBefore;
    expect(kept).toBeLessThan(64 << 20);
    // The 15 MB name was counted and said once (the warning is said at most once a minute).
    expect(warnings.filter((w) => w.startsWith('sparkplug_bounds'))).toHaveLength(1);
    expect(warnings.join('\n').length).toBeLessThan(10_000);
  });

  it('caps the devices of one node; an NBIRTH forgets them so that the real ones are born again', () => {
    const { r, warnings } = reader();
    r.read('spBv1.0/Line3/NBIRTH/edge-9', nbirth(), RECEIVED);
    let seq = 1;
    for (let i = 0; i < MAX_DEVICES_PER_NODE + 500; i += 1) r.read(`spBv1.0/Line3/DBIRTH/edge-9/invented-${i}`, dbirth(seq++ % 256), RECEIVED);
    expect(r.remembered.devices).toBe(MAX_DEVICES_PER_NODE);
    expect(warnings.filter((w) => w.startsWith('sparkplug_bounds'))).toEqual([expect.stringContaining(`already has ${MAX_DEVICES_PER_NODE} devices`)]);
    r.read('spBv1.0/Line3/NBIRTH/edge-9', nbirth(), RECEIVED);
    expect(r.remembered).toMatchObject({ devices: 0 });
    r.read('spBv1.0/Line3/DBIRTH/edge-9/Mixer_3', dbirth(1), RECEIVED);
    expect(r.read('spBv1.0/Line3/DDATA/edge-9/Mixer_3', ddata(2), RECEIVED).records).toHaveLength(1);
  });

  it('forgets births older than a death (NDEATH of the same bdSeq, DDEATH), not for the will of an older connection', () => {
    const { r, sent } = reader();
    const ndeath = (bdSeq: number) => encode({ timestamp: T, metrics: [{ name: 'bdSeq', type: 'Int64', value: bdSeq }] });
    r.read('spBv1.0/Line3/NBIRTH/edge-9', nbirth(7), RECEIVED);
    r.read('spBv1.0/Line3/DBIRTH/edge-9/Mixer_3', dbirth(1), RECEIVED);
    // The will of the connection before (bdSeq 6) arrives late: the births stay.
    r.read('spBv1.0/Line3/NDEATH/edge-9', ndeath(6), RECEIVED);
    expect(r.read('spBv1.0/Line3/DDATA/edge-9/Mixer_3', ddata(2), RECEIVED).records).toEqual([expect.objectContaining({ fieldvalues: { speed: 12.5 } })]);
    r.read('spBv1.0/Line3/DDEATH/edge-9/Mixer_3', encode({ timestamp: T, seq: 3, metrics: [] }), RECEIVED);
    expect(r.remembered.devices).toBe(0);
    r.read('spBv1.0/Line3/DBIRTH/edge-9/Mixer_3', dbirth(4), RECEIVED);
    r.read('spBv1.0/Line3/NDEATH/edge-9', ndeath(7), RECEIVED);
    expect(r.remembered).toMatchObject({ devices: 0, entries: 0 });
    // Data after the death is not read with the aliases of before it; the node is asked for a rebirth.
    expect(r.read('spBv1.0/Line3/DDATA/edge-9/Mixer_3', ddata(5), RECEIVED).records).toEqual([]);
    expect(sent).toEqual(['spBv1.0/Line3/NCMD/edge-9']);
  });

  it('does not remember a name over 1 KB, nor devices that only send data', () => {
    const { r, warnings } = reader();
    r.read('spBv1.0/Line3/NBIRTH/edge-9', nbirth(), RECEIVED);
    const before = r.remembered;
    r.read('spBv1.0/Line3/DBIRTH/edge-9/Mixer_3', hugeBirth(1, 0, 2000), RECEIVED);
    expect(r.remembered).toMatchObject({ entries: before.entries, chars: before.chars });
    expect(warnings).toEqual([expect.stringContaining('names over 1024 bytes')]);
    for (let i = 0; i < 3000; i += 1) r.read(`spBv1.0/Line3/DDATA/edge-9/invented-${i}`, ddata((2 + i) % 256), RECEIVED);
    expect(r.remembered.devices).toBe(1);
  });

  it('a real device of a few metrics outlives a flood of huge births, read or not; one whose birth could not be kept gets its node asked for a rebirth', () => {
    const { r, sent } = reader();
    r.read('spBv1.0/Line3/NBIRTH/edge-9', nbirth(), RECEIVED);
    r.read('spBv1.0/Line3/DBIRTH/edge-9/Mixer_3', dbirth(1), RECEIVED);
    const huge = hugeBirth(undefined, 100_000);
    let seq = 2;
    for (let i = 0; i < 8; i += 1) {
      r.read(`spBv1.0/Line3/DBIRTH/edge-9/invented-${i}`, huge, RECEIVED);
      expect(r.read('spBv1.0/Line3/DDATA/edge-9/Mixer_3', ddata(seq++ % 256, i), RECEIVED).records.map((x) => x.fieldvalues), `after ${i + 1} floods`).toEqual([{ speed: i }]);
    }
    // Silent through the next flood: the huge births make room with each other.
    for (let i = 8; i < 16; i += 1) r.read(`spBv1.0/Line3/DBIRTH/edge-9/invented-${i}`, huge, RECEIVED);
    expect(r.read('spBv1.0/Line3/DDATA/edge-9/Mixer_3', ddata(seq++ % 256, 99), RECEIVED).records.map((x) => x.fieldvalues)).toEqual([{ speed: 99 }]);
    expect(r.remembered.entries).toBeLessThanOrEqual(MAX_REMEMBERED_ENTRIES);
    expect(sent).toEqual([]);
    // The node's devices are full of invented ones: a device born now is not kept, and its data with aliases asks for a rebirth.
    for (let i = 16; r.remembered.devices < MAX_DEVICES_PER_NODE; i += 1) r.read(`spBv1.0/Line3/DBIRTH/edge-9/invented-${i}`, dbirth(seq++ % 256), RECEIVED);
    r.read('spBv1.0/Line3/DBIRTH/edge-9/Late_1', dbirth(seq++ % 256), RECEIVED);
    expect(r.read('spBv1.0/Line3/DDATA/edge-9/Late_1', ddata(seq++ % 256), RECEIVED).records).toEqual([]);
    expect(sent).toEqual(['spBv1.0/Line3/NCMD/edge-9']);
  });
});
