/**
 * POST /v1/config/preview of an mqtt receiver against the shared Mosquitto: the preview listens a
 * few seconds and shows the records the stream's reader makes. Sparkplug B from Cirrus Link's
 * sparkplug-client (names and aliases, births during the preview), JSON from a retained message;
 * nothing is sent to the node (no NCMD) and the running receiver's session is not touched.
 */
import crypto from 'node:crypto';
import { createRequire } from 'node:module';
import { afterEach, describe, expect, it } from 'vitest';
import { BROKER, testClient } from '../../../testing/mqtt-broker.js';
import { previewFixture } from '../../../testing/preview-fixture.js';

type SparkplugClientModule = typeof import('sparkplug-client');
const sparkplugClient = createRequire(import.meta.url)('sparkplug-client') as SparkplugClientModule;
type EdgeNode = ReturnType<SparkplugClientModule['newClient']>;

const { preview } = previewFixture();
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const T = Date.parse('2026-01-05T06:00:00Z');
const connection = { host: '127.0.0.1', port: BROKER.port, username: BROKER.username, password: BROKER.password, timeout: 5 };

async function edgeNode(group: string): Promise<{ node: EdgeNode; commands: unknown[] }> {
  const id = crypto.randomBytes(4).toString('hex');
  const node = sparkplugClient.newClient({ serverUrl: `tcp://127.0.0.1:${BROKER.port}`, username: BROKER.username, password: BROKER.password, groupId: group, edgeNode: 'edge-9', clientId: `edge-${id}`, version: 'spBv1.0' });
  const commands: unknown[] = [];
  node.on('ncmd', (payload) => commands.push(payload));
  node.on('error', () => undefined);
  cleanups.push(() => node.stop());
  await new Promise<void>((resolve) => node.on('birth', () => resolve()));
  return { node, commands };
}

/** Runs `tick` every 100 ms until the test ends: a node that keeps publishing while the preview listens. */
function every100ms(tick: (n: number) => void): void {
  let n = 0;
  const timer = setInterval(() => tick((n += 1)), 100);
  cleanups.push(() => clearInterval(timer));
}

describe('preview of an mqtt receiver (Mosquitto)', () => {
  it('shows the decoded Sparkplug metrics of DDATA as records, with their time stamps, and sends no rebirth request', async () => {
    const group = `Prev${crypto.randomBytes(4).toString('hex')}`;
    const { node, commands } = await edgeNode(group);
    every100ms((n) =>
      node.publishDeviceData('Mixer_3', {
        timestamp: T + n * 1000,
        metrics: [
          { name: 'speed', type: 'Double', value: 12.5 + n, timestamp: T + n * 1000 },
          { name: 'running', type: 'Boolean', value: n % 2 === 0, timestamp: T + n * 1000 },
          { name: 'count', type: 'Int64', value: n, timestamp: T + n * 1000 },
        ],
      }),
    );
    const configuration = {
      data_receiver: [{ data_receiver_name: 'uns', protocol: 'mqtt', connections: [connection], streams: [{ asset: 'Mixer_3', stream_type: 'state', topic: `spBv1.0/${group}/DDATA/edge-9/Mixer_3`, payload_format: 'sparkplug_b' }] }],
      transforms: [],
      data_transmit: [],
    };
    const { status, json } = await preview({ configuration, rows: 3 });
    expect(status).toBe(200);
    const [stream] = json.response.streams;
    expect(stream).toMatchObject({ asset: 'Mixer_3', stream_type: 'state', source: `mqtt://127.0.0.1:${BROKER.port}, topic spBv1.0/${group}/DDATA/edge-9/Mixer_3`, columns: ['speed', 'running', 'count'] });
    expect(stream.records).toHaveLength(3);
    const [first, second] = stream.records as { timestamp: string; fieldvalues: { speed: number; running: boolean; count: number } }[];
    // Consecutive messages of the node: one record each, at the metrics' own time stamps.
    const n = first!.fieldvalues.count;
    expect(first).toEqual({ timestamp: new Date(T + n * 1000).toISOString().replace('Z', '000Z'), fieldvalues: { speed: 12.5 + n, running: n % 2 === 0, count: n } });
    expect(second!.fieldvalues).toEqual({ speed: 13.5 + n, running: (n + 1) % 2 === 0, count: n + 1 });
    // The preview started mid-stream: said so, and nothing was asked of the node.
    expect(stream.problems).toEqual([
      expect.objectContaining({ level: 'warning', code: 'sparkplug.preview_no_rebirth', message: expect.stringMatching(new RegExp(`^Sparkplug: no NBIRTH of node ${group}/edge-9 seen before .*The preview asks for no rebirth`)) }),
    ]);
    expect(commands).toEqual([]);
  });

  it('resolves aliases from births seen while listening; says when nothing arrives; reads a retained JSON message', async () => {
    const group = `Prev${crypto.randomBytes(4).toString('hex')}`;
    const { node } = await edgeNode(group);
    every100ms((n) => {
      // A rebirth now and then (as after a host's request), data by alias only in between.
      if (n % 5 === 1) {
        node.publishNodeBirth({ timestamp: T, metrics: [{ name: 'Node Control/Rebirth', type: 'Boolean', value: false }] });
        node.publishDeviceBirth('Mixer_3', { timestamp: T, metrics: [{ name: 'speed', alias: 1, type: 'Double', value: 0 }, { name: 'batch', alias: 2, type: 'String', value: '' }] });
      } else node.publishDeviceData('Mixer_3', { timestamp: T + n * 1000, metrics: [{ alias: 1, type: 'Double', value: n / 2 }, { alias: 2, type: 'String', value: `B-${n}` }] });
    });
    const topic = `preview-${crypto.randomBytes(4).toString('hex')}/press1`;
    const publisher = await testClient();
    cleanups.push(async () => {
      await publisher.publishAsync(topic, '', { qos: 1, retain: true });
      await publisher.endAsync();
    });
    await publisher.publishAsync(topic, JSON.stringify({ part: 'P7', cyc_t: 29.5 }), { qos: 1, retain: true });
    const configuration = {
      data_receiver: [
        {
          data_receiver_name: 'uns',
          protocol: 'mqtt',
          connections: [connection],
          streams: [
            { asset: 'Mixer_3', stream_type: 'state', topic: `spBv1.0/${group}/DDATA/edge-9/+`, payload_format: 'sparkplug_b' },
            { asset: 'Press_1', stream_type: 'cycle', topic, topic_field: 'topic' },
            { asset: 'Oven_2', stream_type: 'zones', topic: `${topic}/silent` },
          ],
        },
      ],
      transforms: [],
      data_transmit: [],
    };
    const { json } = await preview({ configuration, rows: 2 });
    const [mixer, press, oven] = json.response.streams;
    expect(mixer.columns).toEqual(['speed', 'batch']);
    expect(mixer.records).toHaveLength(2);
    for (const record of mixer.records) expect(record.fieldvalues.batch).toMatch(/^B-\d+$/);
    expect(press.records).toEqual([{ timestamp: expect.any(String), fieldvalues: { part: 'P7', cyc_t: 29.5, topic } }]);
    expect(oven).toMatchObject({ records: [], problems: [{ level: 'warning', message: expect.stringMatching(/^Nothing arrived on this topic within 5 s of listening/) }] });
  });
});
