/**
 * The mqtt transmit as a Sparkplug B edge node (payload_format "sparkplug_b") against Mosquitto,
 * checked by a host made of Eclipse Tahu's codec (electron/testing/sparkplug-host.ts): births
 * before data, every value and type, seq across births and data (and its wrap), rebirth on NCMD,
 * NDEATH after kill -9, a broker restart, and a primary host going offline and online.
 */
import crypto from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { filePlant, waitFor } from '../../../testing/file-plant.js';
import { BROKER, PrivateBroker } from '../../../testing/mqtt-broker.js';
import { type ServeProcess, serveProcess } from '../../../testing/serve-process.js';
import { type HostMessage, SparkplugHost, plain } from '../../../testing/sparkplug-host.js';
import { type TestServer, startTestServer, tempDirectory } from '../../../testing/test-host.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const HEADER = 'time,part,force,ok,label\n';
const rows = (from: number, to: number) => Array.from({ length: to - from }, (_, k) => `2026-01-05 06:00:${String((from + k) % 60).padStart(2, '0')},${from + k},1.5,true,L${from + k}\n`).join('');

function sparkplugPlant(transmit: Record<string, unknown> = {}) {
  const group = `G${crypto.randomBytes(4).toString('hex')}`;
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
      timeout: 10,
      poll_interval: 1,
      ...transmit,
    } as never,
  ];
  return { group, plant };
}

async function startAgent(config: unknown): Promise<TestServer> {
  const server = await startTestServer({ dataDirectory: tempDirectory('tributary-spb-tx-') });
  cleanups.push(() => server.close());
  const saved = await server.call('POST', '/v1/config', config);
  expect(saved.json.success, JSON.stringify(saved.json)).toBe(true);
  return server;
}

async function host(group: string, port?: number): Promise<SparkplugHost> {
  const h = await new SparkplugHost(group, port).start();
  cleanups.push(() => h.close());
  return h;
}

/** seq of births and data counts up by one (mod 256) from each NBIRTH, which has 0. */
function expectSeqChain(messages: HostMessage[]): void {
  let expected: number | undefined;
  for (const m of messages) {
    if (m.type === 'NDEATH') continue;
    if (m.type === 'NBIRTH') expected = 0;
    expect(m.seq, `${m.type} ${m.device ?? ''}`).toBe(expected);
    expected = (expected! + 1) % 256;
  }
}

const backlog = async (server: { call: TestServer['call'] }) => (await server.call('GET', '/v1/status')).json.response.last_data_transmit.uns.backlog_records as number;

describe('mqtt transmit, Sparkplug B (Mosquitto, Eclipse Tahu as host)', () => {
  it('births before data, every value with its type and the record time stamp, seq in order', async () => {
    const { group, plant } = sparkplugPlant();
    const h = await host(group);
    await startAgent(plant.config);
    plant.write('press_a.csv', HEADER + rows(0, 3));
    plant.write('oven_a.csv', 'time,temp\n2026-01-05 06:00:01,215.5\n');
    await h.waitFor(() => h.dataMetrics('Press_1').length >= 15 && h.dataMetrics('Oven_2').length >= 2, 'DDATA of both devices');

    const [nbirth] = h.of('NBIRTH');
    expect(nbirth!.topic).toBe(`spBv1.0/${group}/NBIRTH/edge-1`);
    expect(nbirth!.values).toEqual({ bdSeq: expect.any(Number), 'Node Control/Rebirth': false });
    expect(nbirth!.payload.metrics!.map((m) => m.type)).toEqual(['Int64', 'Boolean']);
    for (const device of ['Press_1', 'Oven_2']) {
      const order = h.messages.filter((m) => m.device === device).map((m) => m.type);
      expect(order[0]).toBe('DBIRTH');
      expect(h.messages.indexOf(h.of('DBIRTH', device)[0]!)).toBeGreaterThan(h.messages.indexOf(nbirth!));
    }
    const birth = h.of('DBIRTH', 'Press_1')[0]!;
    expect(birth.payload.metrics!.map((m) => [m.name, m.type])).toEqual([
      ['time', 'DateTime'],
      ['part', 'Int64'],
      ['force', 'Double'],
      ['ok', 'Boolean'],
      ['label', 'String'],
    ]);
    const t0 = Date.parse('2026-01-05T06:00:00Z');
    expect(h.dataMetrics('Press_1').slice(0, 5)).toEqual([
      ['time', 'DateTime', t0, t0],
      ['part', 'Int64', 0, t0],
      ['force', 'Double', 1.5, t0],
      ['ok', 'Boolean', true, t0],
      ['label', 'String', 'L0', t0],
    ]);
    expect(h.dataMetrics('Press_1').filter(([name]) => name === 'part').map(([, , v, t]) => [v, t])).toEqual([0, 1, 2].map((i) => [i, t0 + i * 1000]));
    expect(h.dataMetrics('Oven_2')).toContainEqual(['temp', 'Double', 215.5, t0 + 1000]);
    expectSeqChain(h.messages);
  });

  it('wraps seq after 255, births a device again for a new field, and answers NCMD rebirth', async () => {
    const { group, plant } = sparkplugPlant({ max_request_records: 1 });
    const h = await host(group);
    await startAgent(plant.config);
    // 600 messages: a reconnect of a busy machine (a new NBIRTH starts seq at 0 again) still leaves a wrap.
    plant.write('press_a.csv', HEADER + rows(0, 600));
    const wrapped = (m: HostMessage, i: number) => m.seq === 255 && h.messages[i + 1]?.seq === 0 && h.messages[i + 1]?.type === 'DDATA';
    await h.waitFor(() => h.messages.some(wrapped), 'seq wrapping from 255 to 0', 60_000);
    await h.waitFor(() => h.dataMetrics('Press_1').some(([n, , v]) => n === 'part' && v === 599), 'the last row');
    expectSeqChain(h.messages);
    // A device is born once per node birth.
    expect(h.of('DBIRTH', 'Press_1')).toHaveLength(h.of('NBIRTH').length);

    plant.write('press_b.csv', 'time,part,force,ok,label,operator\n2026-01-05 07:00:00,600,2.5,false,L600,Ann\n');
    const reborn = await h.waitFor(() => h.of('DBIRTH', 'Press_1').find((m) => m.values.operator !== undefined), 'a DBIRTH with the new field');
    expect(reborn.values).toMatchObject({ operator: 'Ann', part: 600 });
    const data = await h.waitFor(() => h.messages.slice(h.messages.indexOf(reborn)).find((m) => m.type === 'DDATA'), 'the DDATA after it');
    expect(data.values).toMatchObject({ operator: 'Ann' });

    const births = h.of('NBIRTH').length;
    await h.rebirth('edge-1');
    await h.waitFor(() => h.of('NBIRTH').length > births, 'NBIRTH after the rebirth command');
    const nbirths = h.of('NBIRTH');
    // The rebirth: a new NBIRTH (seq 0) with the same bdSeq, the device born again with its last values.
    expect(nbirths.at(-1)!.seq).toBe(0);
    expect(nbirths.at(-1)!.values.bdSeq).toBe(nbirths.at(-2)!.values.bdSeq);
    await h.waitFor(() => h.messages.slice(h.messages.indexOf(nbirths.at(-1)!)).find((m) => m.type === 'DBIRTH'), 'the DBIRTH after it');
    const after = h.messages.slice(h.messages.indexOf(nbirths.at(-1)!)).find((m) => m.type === 'DBIRTH')!;
    expect(after.values).toMatchObject({ part: 600, operator: 'Ann', ok: false });
    expectSeqChain(h.messages);
  });

  it('the broker announces NDEATH with the bdSeq of the NBIRTH when the agent is killed (kill -9)', async () => {
    const { group, plant } = sparkplugPlant();
    const h = await host(group);
    const dataDirectory = tempDirectory('tributary-spb-crash-');
    let agent: ServeProcess | undefined = await serveProcess(['--data-dir', dataDirectory, '--port', '0']);
    cleanups.push(async () => agent?.crash());
    expect((await agent.call('POST', '/v1/config', plant.config)).json.success).toBe(true);
    plant.write('press_a.csv', HEADER + rows(0, 50));
    await h.waitFor(() => h.dataMetrics('Press_1').length >= 250, 'the records');
    const bdSeq = h.of('NBIRTH')[0]!.values.bdSeq;
    await agent.crash();
    const death = await h.waitFor(() => h.of('NDEATH')[0], 'NDEATH from the broker');
    expect(death.values.bdSeq).toBe(bdSeq);

    agent = await serveProcess(['--data-dir', dataDirectory, '--port', '0']);
    const second = await h.waitFor(() => h.of('NBIRTH')[1], 'a new NBIRTH');
    expect(second.values.bdSeq).toBe(((bdSeq as number) + 1) % 256);
  }, 120_000);

  it('after a broker restart: a new NBIRTH, births again before data, and every record', async () => {
    const broker = await PrivateBroker.start();
    cleanups.push(() => broker.close());
    // With a primary host the node publishes only after the host's STATE online: the new host is
    // subscribed before the node's births after the restart (births are QoS 0 and not kept).
    const hostId = `scada-${crypto.randomBytes(3).toString('hex')}`;
    const { group, plant } = sparkplugPlant({ port: broker.port, max_request_records: 50, primary_host_id: hostId });
    let h = await host(group, broker.port);
    await h.state(hostId, true);
    const server = await startAgent(plant.config);
    plant.write('press_a.csv', HEADER + rows(0, 500));
    await h.waitFor(() => h.of('DDATA').length > 0, 'the first DDATA');
    await broker.kill();
    plant.write('press_b.csv', HEADER + rows(500, 1000));
    await waitFor(async () => (await backlog(server)) > 0, 20_000, 'a backlog while the broker is down');
    const before = h;
    await broker.start();
    h = await host(group, broker.port);
    await h.state(hostId, true);
    await h.waitFor(() => h.of('NBIRTH').length > 0, 'NBIRTH after the restart');
    await waitFor(async () => (await backlog(server)) === 0, 30_000, 'an empty outbox');
    const parts = new Set([...before.dataMetrics('Press_1'), ...h.dataMetrics('Press_1')].filter(([n]) => n === 'part').map(([, , v]) => v));
    expect(parts.size).toBe(1000);
    const first = h.messages.findIndex((m) => m.type === 'DDATA');
    expect(h.messages.slice(0, first).map((m) => m.type)).toEqual(expect.arrayContaining(['NBIRTH', 'DBIRTH']));
    expect(h.of('NBIRTH')[0]!.values.bdSeq).not.toBe(before.of('NBIRTH')[0]!.values.bdSeq);
    expectSeqChain(h.messages);
    // The agent's back-off while the broker is down grows (1, 2, 4 … s): room for a slow, busy machine.
  }, 120_000);

  it('with primary_host_id waits for the host STATE online, keeps the records while it is offline', async () => {
    const hostId = `scada-${crypto.randomBytes(3).toString('hex')}`;
    const { group, plant } = sparkplugPlant({ primary_host_id: hostId });
    const h = await host(group);
    cleanups.push(() => h.clearState(hostId));
    await h.state(hostId, false);
    const server = await startAgent(plant.config);
    plant.write('press_a.csv', HEADER + rows(0, 20));
    await waitFor(async () => (await backlog(server)) === 20, 20_000, '20 records kept while the host is offline');
    const waiting = await waitFor(async () => {
      const streams = (await server.call('GET', '/v1/streams')).json.response as { markers: { category: string; message: string }[] }[];
      return streams.flatMap((s) => s.markers).find((m) => m.category === 'primary_host_offline');
    }, 20_000, 'a marker about the host');
    expect(waiting.message).toContain(hostId);
    expect(h.messages).toEqual([]);
    const node = async () => (await server.call('GET', '/v1/status')).json.response.last_data_transmit.uns.sparkplug;
    expect(await node()).toMatchObject({
      state: 'waiting_for_host', group_id: group, edge_node_id: 'edge-1', primary_host_id: hostId, host_online: false, born_at: null,
      message: expect.stringContaining(`waits for primary host ${hostId} to be online (it is offline)`),
    });

    await h.state(hostId, true);
    await h.waitFor(() => h.dataMetrics('Press_1').filter(([n]) => n === 'part').length === 20, '20 records once the host is online');
    expect(h.messages[0]!.type).toBe('NBIRTH');
    const born = await node();
    expect(born).toMatchObject({ state: 'born', bd_seq: h.messages[0]!.values.bdSeq, devices_born: 1, host_online: true });
    // The NBIRTH's own time stamp, as the console shows "NBIRTH sent 14:02".
    expect(Date.parse(born.born_at)).toBe(plain(h.messages[0]!.payload.timestamp) as number);

    await h.state(hostId, false);
    const death = await h.waitFor(() => h.of('NDEATH')[0], 'NDEATH when the host goes offline');
    expect(death.values.bdSeq).toBe(h.of('NBIRTH')[0]!.values.bdSeq);
    plant.write('press_b.csv', HEADER + rows(20, 30));
    await waitFor(async () => (await backlog(server)) === 10, 20_000, '10 records kept while the host is offline again');
    expect(h.of('DDATA').length).toBeLessThanOrEqual(20);

    await h.state(hostId, true);
    await h.waitFor(() => h.dataMetrics('Press_1').filter(([n]) => n === 'part').length === 30, 'all 30 records');
    expect(h.of('NBIRTH')).toHaveLength(2);
    expectSeqChain(h.messages);
  });
});
