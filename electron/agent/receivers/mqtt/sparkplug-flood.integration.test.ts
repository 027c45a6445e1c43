/**
 * Issue 50 point 2 against the shared Mosquitto: any client of the broker published DBIRTHs for
 * invented devices of a real edge node (100,000 aliases each, and a 15 MB metric name): the agent
 * went from 91 MB to 1,447 MB and status took 3.3 s. Now what births make the receiver remember is
 * bounded: status answers within a second throughout, the memory stays down, and the real device
 * that keeps sending data is read with its aliases, every record of it.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { MqttClient } from 'mqtt';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../../../testing/file-plant.js';
import { BROKER, testClient } from '../../../testing/mqtt-broker.js';
import { tahu } from '../../../testing/sparkplug-host.js';
import { startTestServer, tempDirectory } from '../../../testing/test-host.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const T = Date.parse('2026-01-05T06:00:00Z');
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

/** A birth without seq of `count` Double metrics with aliases (and a name of `longName` bytes), written directly. */
function hugeBirth(count: number, longName?: number): Buffer {
  const parts: Buffer[] = [Buffer.from([0x08, ...varint(T)])];
  const metric = (name: Buffer, alias: number) => {
    const body = Buffer.concat([Buffer.from([0x0a, ...varint(name.length)]), name, Buffer.from([0x10, ...varint(alias), 0x20, 10])]);
    parts.push(Buffer.from([0x12, ...varint(body.length)]), body);
  };
  for (let i = 0; i < count; i += 1) metric(Buffer.from(`invented metric ${i}`), i);
  if (longName !== undefined) metric(Buffer.alloc(longName, 0x61), count);
  return Buffer.concat(parts);
}

describe('mqtt receiver, Sparkplug B: a flood of invented births', () => {
  it('30 DBIRTHs of 100,000 aliases and a 15 MB name: status within 1 s, memory bounded, the real device read whole', async () => {
    const id = crypto.randomBytes(4).toString('hex');
    const group = `Flood${id}`;
    const dataDirectory = tempDirectory('tributary-spb-flood-');
    const outbox = path.join(dataDirectory, 'csv');
    const server = await startTestServer({ dataDirectory });
    cleanups.push(() => server.close());
    const config = {
      data_receiver: [
        {
          data_receiver_name: 'uns',
          protocol: 'mqtt',
          connections: [{ host: '127.0.0.1', port: BROKER.port, username: BROKER.username, password: BROKER.password, client_id: `flood-rx-${id}`, timeout: 5 }],
          streams: [{ asset: 'Mixer_3', stream_type: 'state', topic: `spBv1.0/${group}/DDATA/edge-9/Mixer_3`, payload_format: 'sparkplug_b' }],
        },
      ],
      transforms: [],
      data_transmit: [{ transmit_name: 'archive', transmit_type: 'csv', filter_stream: ['*'], directory: outbox, poll_interval: 1 }],
    };
    expect((await server.call('POST', '/v1/config', config)).json.success).toBe(true);
    await waitFor(async () => (await server.call('GET', '/v1/status')).json.response.agent.services['receiver:uns']?.status === 'running', 15_000, 'the receiver');
    const rows = (): string[] => (fs.existsSync(outbox) ? fs.readdirSync(outbox).flatMap((name) => fs.readFileSync(path.join(outbox, name), 'utf8').trimEnd().split('\n').slice(1)) : []);

    const real: MqttClient = await testClient();
    const attacker: MqttClient = await testClient();
    cleanups.push(() => real.endAsync().then(() => undefined));
    cleanups.push(() => attacker.endAsync().then(() => undefined));
    const node = `spBv1.0/${group}`;
    let seq = 0;
    await real.publishAsync(`${node}/NBIRTH/edge-9`, encode({ timestamp: T, seq: seq++, metrics: [{ name: 'bdSeq', type: 'Int64', value: 0 }] }), { qos: 1 });
    await real.publishAsync(`${node}/DBIRTH/edge-9/Mixer_3`, encode({ timestamp: T, seq: seq++, metrics: [{ name: 'speed', alias: 1, type: 'Double', value: 0 }] }), { qos: 1 });
    const data = (k: number) => real.publishAsync(`${node}/DDATA/edge-9/Mixer_3`, encode({ timestamp: T + k * 1000, seq: seq++ % 256, metrics: [{ alias: 1, type: 'Double', value: k }] }), { qos: 1 });

    const rssBefore = process.memoryUsage().rss;
    let slowest = 0;
    let done = false;
    const poller = (async () => {
      while (!done) {
        const started = performance.now();
        expect((await server.call('GET', '/v1/status')).status).toBe(200);
        slowest = Math.max(slowest, performance.now() - started);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    const huge = hugeBirth(100_000);
    for (let i = 0; i < 30; i += 1) {
      await attacker.publishAsync(`${node}/DBIRTH/edge-9/invented-${i}`, i === 15 ? hugeBirth(0, 15 << 20) : huge, { qos: 1 });
      if (i % 3 === 2) await data(i);
    }
    await waitFor(() => rows().length === 10, 60_000, 'the 10 records of the real device');
    done = true;
    await poller;
    expect(slowest).toBeLessThan(1000);
    // 30 births of 100,000 aliases took 1.4 GB before; the receiver keeps 500,000 entries at most.
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(400 << 20);
    expect(rows().map((line) => line.split(',').at(-1))).toEqual(['2', '5', '8', '11', '14', '17', '20', '23', '26', '29']);
  }, 120_000);
});
