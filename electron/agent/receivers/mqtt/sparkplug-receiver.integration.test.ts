/**
 * The mqtt receiver reading Sparkplug B (payload_format "sparkplug_b") from another edge node:
 * Cirrus Link's sparkplug-client (not Tributary's code) publishes births and data to the shared
 * Mosquitto; the agent records the metrics through the csv transmit, and asks the node for a
 * rebirth on a seq gap.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../../../testing/file-plant.js';
import { BROKER } from '../../../testing/mqtt-broker.js';
import { type TestServer, startTestServer, tempDirectory } from '../../../testing/test-host.js';

type SparkplugClientModule = typeof import('sparkplug-client');
const sparkplugClient = createRequire(import.meta.url)('sparkplug-client') as SparkplugClientModule;
type EdgeNode = ReturnType<SparkplugClientModule['newClient']>;

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function setup() {
  const id = crypto.randomBytes(4).toString('hex');
  const group = `Line${id}`;
  const dataDirectory = tempDirectory('tributary-spb-rx-');
  const outbox = path.join(dataDirectory, 'csv');
  const config = {
    data_receiver: [
      {
        data_receiver_name: 'uns',
        protocol: 'mqtt',
        connections: [{ host: '127.0.0.1', port: BROKER.port, username: BROKER.username, password: BROKER.password, client_id: `rx-${id}`, timeout: 5 }],
        streams: [{ asset: 'Mixer_3', stream_type: 'state', topic: `spBv1.0/${group}/DDATA/edge-9/Mixer_3`, payload_format: 'sparkplug_b' }],
      },
    ],
    transforms: [],
    data_transmit: [{ transmit_name: 'archive', transmit_type: 'csv', filter_stream: ['*'], directory: outbox, poll_interval: 1 }],
  };
  const rows = (): Record<string, string>[] => {
    if (!fs.existsSync(outbox)) return [];
    return fs.readdirSync(outbox).flatMap((name) => {
      const [header, ...lines] = fs.readFileSync(path.join(outbox, name), 'utf8').trimEnd().split('\n');
      const columns = header!.split(',');
      return lines.map((line) => Object.fromEntries(line.split(',').map((cell, i) => [columns[i]!, cell])));
    });
  };
  const start = async (): Promise<TestServer> => {
    const server = await startTestServer({ dataDirectory });
    cleanups.push(() => server.close());
    expect((await server.call('POST', '/v1/config', config)).json.success).toBe(true);
    await waitFor(async () => (await server.call('GET', '/v1/status')).json.response.agent.services['receiver:uns']?.status === 'running', 15_000, 'the receiver');
    return server;
  };
  const edge = async (): Promise<{ node: EdgeNode; commands: unknown[] }> => {
    const node = sparkplugClient.newClient({ serverUrl: `tcp://127.0.0.1:${BROKER.port}`, username: BROKER.username, password: BROKER.password, groupId: group, edgeNode: 'edge-9', clientId: `edge-${id}`, version: 'spBv1.0' });
    const commands: unknown[] = [];
    node.on('ncmd', (payload) => commands.push(payload));
    node.on('error', () => undefined);
    cleanups.push(() => node.stop());
    await new Promise<void>((resolve) => node.on('birth', () => resolve()));
    return { node, commands };
  };
  return { group, rows, start, edge };
}

const T = Date.parse('2026-01-05T06:00:00Z');

function births(node: EdgeNode): void {
  node.publishNodeBirth({ timestamp: T, metrics: [{ name: 'Node Control/Rebirth', type: 'Boolean', value: false }] });
  node.publishDeviceBirth('Mixer_3', {
    timestamp: T,
    metrics: [
      { name: 'speed', alias: 1, type: 'Double', value: 0 },
      { name: 'running', alias: 2, type: 'Boolean', value: false },
      { name: 'batch', alias: 3, type: 'String', value: '' },
      { name: 'count', alias: 4, type: 'Int64', value: 0 },
    ],
  });
}

describe('mqtt receiver, Sparkplug B (Cirrus Link sparkplug-client as the edge node)', () => {
  it('records the metrics of DDATA by their time stamps, names from the births for aliases', async () => {
    const { rows, start, edge } = setup();
    await start();
    const { node } = await edge();
    births(node);
    node.publishDeviceData('Mixer_3', {
      timestamp: T + 10_000,
      metrics: [
        { name: 'speed', type: 'Double', value: 12.5, timestamp: T },
        { name: 'running', type: 'Boolean', value: true, timestamp: T },
        { alias: 3, type: 'String', value: 'B-17', timestamp: T },
        { alias: 4, type: 'Int64', value: 41, timestamp: T },
      ],
    });
    node.publishDeviceData('Mixer_3', { timestamp: T + 1000, metrics: [{ alias: 1, type: 'Double', value: 13.5 }, { alias: 4, type: 'Int64', value: 42 }] });
    const got = await waitFor(() => rows().length >= 2 && rows(), 20_000, 'two records');
    expect(got.map((r) => [r.timestamp, r.speed, r.running, r.batch, r.count])).toEqual([
      ['2026-01-05T06:00:00.000000Z', '12.5', 'true', 'B-17', '41'],
      ['2026-01-05T06:00:01.000000Z', '13.5', '', '', '42'],
    ]);
  });

  it('on a seq gap marks the stream and sends NCMD rebirth once; the rebirth clears the marker', async () => {
    const { rows, start, edge } = setup();
    const server = await start();
    const { node, commands } = await edge();
    births(node);
    node.publishDeviceData('Mixer_3', { timestamp: T, metrics: [{ name: 'count', type: 'Int64', value: 1 }] });
    await waitFor(() => rows().length === 1, 20_000, 'the first record');
    // Two messages of this node never reach the broker: its seq moves on without them.
    const lose = () => (node as unknown as { incrementSeqNum(): number }).incrementSeqNum();
    lose();
    lose();
    node.publishDeviceData('Mixer_3', { timestamp: T + 1000, metrics: [{ name: 'count', type: 'Int64', value: 2 }] });
    node.publishDeviceData('Mixer_3', { timestamp: T + 2000, metrics: [{ name: 'count', type: 'Int64', value: 3 }] });
    await waitFor(() => commands.length === 1, 20_000, 'the rebirth request');
    expect(JSON.stringify(commands[0])).toContain('Node Control/Rebirth');
    const markers = async () => ((await server.call('GET', '/v1/streams')).json.response as { markers: { category: string; message: string }[] }[]).flatMap((s) => s.markers);
    const gap = await waitFor(async () => (await markers()).find((m) => m.category === 'sparkplug_seq_gap'), 20_000, 'the gap marker');
    expect(gap.message).toContain('expected 3, got 5');
    lose();
    node.publishDeviceData('Mixer_3', { timestamp: T + 3000, metrics: [{ name: 'count', type: 'Int64', value: 4 }] });
    await waitFor(() => rows().length === 4, 20_000, 'every record, with the gap');
    expect(commands).toHaveLength(1);

    births(node);
    await waitFor(async () => (await markers()).every((m) => m.category !== 'sparkplug_seq_gap'), 20_000, 'the marker cleared by the NBIRTH');
    lose();
    node.publishDeviceData('Mixer_3', { timestamp: T + 4000, metrics: [{ name: 'count', type: 'Int64', value: 5 }] });
    await waitFor(() => commands.length === 2, 20_000, 'a request for the new gap');
  });
});
