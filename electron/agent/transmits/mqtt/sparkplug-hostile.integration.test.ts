/**
 * Issue 50 (points 2 and 7): any client of the broker can publish STATE and NCMD messages to the
 * mqtt transmit's edge node. A STATE whose time stamp is not a time ({"timestamp": 1e400} is
 * Infinity), is far in the future, or comes from another host than the primary one must not put
 * the node into NDEATH for good; 5 000 junk NCMDs are logged once a minute with a count; 1,000
 * rebirth NCMDs make a few rebirths.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { MqttClient } from 'mqtt';
import { afterEach, describe, expect, it } from 'vitest';
import { filePlant, waitFor } from '../../../testing/file-plant.js';
import { BROKER, testClient } from '../../../testing/mqtt-broker.js';
import { SparkplugHost } from '../../../testing/sparkplug-host.js';
import { type TestServer, startTestServer, tempDirectory } from '../../../testing/test-host.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const HEADER = 'time,part\n';
const rows = (from: number, to: number) => Array.from({ length: to - from }, (_, k) => `2026-01-05 06:00:${String((from + k) % 60).padStart(2, '0')},${from + k}\n`).join('');

async function setup() {
  const id = crypto.randomBytes(4).toString('hex');
  const group = `G${id}`;
  const hostId = `scada-${id}`;
  const plant = filePlant();
  plant.config.data_transmit = [
    {
      transmit_name: 'uns',
      transmit_type: 'mqtt',
      filter_stream: ['*'],
      host: '127.0.0.1',
      port: BROKER.port,
      username: BROKER.username,
      password: BROKER.password,
      payload_format: 'sparkplug_b',
      group_id: group,
      edge_node_id: 'edge-1',
      primary_host_id: hostId,
      timeout: 10,
      poll_interval: 1,
    } as never,
  ];
  const h = await new SparkplugHost(group).start();
  cleanups.push(() => h.close());
  cleanups.push(() => h.clearState(hostId));
  const attacker: MqttClient = await testClient();
  cleanups.push(async () => void (await attacker.endAsync()));
  const dataDirectory = tempDirectory('tributary-spb-hostile-');
  const server: TestServer = await startTestServer({ dataDirectory });
  cleanups.push(() => server.close());
  expect((await server.call('POST', '/v1/config', plant.config)).json.success).toBe(true);
  const node = async () => {
    const started = Date.now();
    const status = await server.call('GET', '/v1/status');
    expect(Date.now() - started, 'GET /v1/status answers within 1 s').toBeLessThan(1000);
    return status.json.response.last_data_transmit.uns.sparkplug as { state: string; host_online: boolean | null };
  };
  const log = () =>
    fs
      .readdirSync(path.join(dataDirectory, 'logs'))
      .filter((name) => name.endsWith('.log'))
      .map((name) => fs.readFileSync(path.join(dataDirectory, 'logs', name), 'utf8'))
      .join('');
  return { group, hostId, plant, h, attacker, node, log };
}

describe('mqtt transmit, Sparkplug B edge node against hostile broker clients', () => {
  it('a STATE of time stamp 1e400, one far in the future, or of another host does not put the node into NDEATH; the true host still counts', async () => {
    const { hostId, plant, h, attacker, node } = await setup();
    await h.state(hostId, true);
    await waitFor(async () => (await node()).state === 'born', 20_000, 'the node born once the host is online');
    plant.write('press_a.csv', HEADER + rows(0, 5));
    await h.waitFor(() => h.dataMetrics('Press_1').filter(([n]) => n === 'part').length === 5, '5 records');

    const state = `spBv1.0/STATE/${hostId}`;
    await attacker.publishAsync(state, '{"online": false, "timestamp": 1e400}', { qos: 1 });
    await attacker.publishAsync(state, JSON.stringify({ online: false, timestamp: Date.now() + 365 * 86_400_000 }), { qos: 1 });
    await attacker.publishAsync(state, JSON.stringify({ online: false, timestamp: -1 }), { qos: 1 });
    await attacker.publishAsync(`spBv1.0/STATE/other-${hostId}`, JSON.stringify({ online: false, timestamp: Date.now() + 1000 }), { qos: 1 });
    // A marker message after the hostile ones: once it is through, the node has seen them all.
    plant.write('press_b.csv', HEADER + rows(5, 8));
    await h.waitFor(() => h.dataMetrics('Press_1').filter(([n]) => n === 'part').length === 8, '3 more records sent after the hostile STATEs');
    expect(h.of('NDEATH')).toEqual([]);
    expect(await node()).toMatchObject({ state: 'born', host_online: true });

    // The true host going offline and online still counts: nothing above took its place.
    await h.state(hostId, false);
    await h.waitFor(() => h.of('NDEATH')[0], 'NDEATH when the true host goes offline');
    await waitFor(async () => (await node()).state === 'waiting_for_host', 10_000, 'waiting for the host');
    await h.state(hostId, true);
    await h.waitFor(() => h.of('NBIRTH').length === 2, 'born again once the true host is online');
    expect(await node()).toMatchObject({ state: 'born', host_online: true });
  }, 90_000);

  it('5 000 junk NCMDs: the node stays born, status stays fast, and they are logged once with a count, not 5 000 times', async () => {
    const { group, hostId, plant, h, attacker, node, log } = await setup();
    await h.state(hostId, true);
    await waitFor(async () => (await node()).state === 'born', 20_000, 'the node born');
    const junk = Buffer.from([0x12, 0xff, 0xff, 0xff, 0xff, 0x0f]);
    for (let i = 0; i < 5000; i += 1) attacker.publish(`spBv1.0/${group}/NCMD/edge-1`, junk, { qos: 0 });
    await attacker.publishAsync(`spBv1.0/${group}/NCMD/edge-1`, junk, { qos: 1 });
    await node();
    plant.write('press_a.csv', HEADER + rows(0, 3));
    await h.waitFor(() => h.dataMetrics('Press_1').filter(([n]) => n === 'part').length === 3, 'records still sent');
    // The NCMDs are read before the records the node sends after them (one connection, in order).
    const lines = log().split('\n').filter((line) => line.includes('could not be read'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('| WARNING |');
    expect(await node()).toMatchObject({ state: 'born' });
  }, 90_000);

  it('1,000 valid rebirth NCMDs at once: a few rebirths, not 1,000, and the records after them all sent', async () => {
    const { hostId, plant, h, node } = await setup();
    await h.state(hostId, true);
    await waitFor(async () => (await node()).state === 'born', 20_000, 'the node born');
    plant.write('press_a.csv', HEADER + rows(0, 3));
    await h.waitFor(() => h.dataMetrics('Press_1').filter(([n]) => n === 'part').length === 3, '3 records');
    const births = h.of('NBIRTH').length;
    for (let i = 0; i < 1000; i += 1) await h.rebirth('edge-1');
    // Two windows of REBIRTH_MIN_INTERVAL_MS at most: the first rebirth and one for all the rest.
    await h.waitFor(() => h.of('NBIRTH').length >= births + 1, 'a rebirth');
    await new Promise((resolve) => setTimeout(resolve, 4500));
    expect(h.of('NBIRTH').length - births).toBeGreaterThanOrEqual(1);
    expect(h.of('NBIRTH').length - births).toBeLessThanOrEqual(4);
    plant.write('press_b.csv', HEADER + rows(3, 6));
    await h.waitFor(() => h.dataMetrics('Press_1').filter(([n]) => n === 'part').length === 6, '3 more records');
    expect(await node()).toMatchObject({ state: 'born' });
  }, 90_000);
});

