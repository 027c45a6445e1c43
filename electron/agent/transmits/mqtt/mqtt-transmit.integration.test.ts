/**
 * The mqtt transmit against real Mosquitto brokers (integration): the shared one of
 * scripts/ci/start-mosquitto.sh, and private ones a test stops and starts. CSV rows dropped into a
 * folder are read by the agent and published; a test subscriber counts what arrives.
 */
import crypto from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { filePlant, waitFor } from '../../../testing/file-plant.js';
import { BROKER, PrivateBroker, TestSubscriber, testClient } from '../../../testing/mqtt-broker.js';
import { type ServeProcess, serveProcess } from '../../../testing/serve-process.js';
import { type TestServer, startTestServer, tempDirectory } from '../../../testing/test-host.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const HEADER = 'time,part,force\n';
const rows = (from: number, to: number) => Array.from({ length: to - from }, (_, k) => `2026-01-05 06:00:00,${from + k},1.5\n`).join('');

/** A file plant whose records go to an mqtt transmit; `prefix` is this test's own topic tree. */
function mqttPlant(transmit: Record<string, unknown> = {}) {
  const prefix = `test/${crypto.randomBytes(4).toString('hex')}`;
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
      topic: `${prefix}/{asset}/{stream_type}`,
      timeout: 10,
      poll_interval: 1,
      ...transmit,
    } as never,
  ];
  return { prefix, plant };
}

async function startAgent(config: unknown): Promise<TestServer> {
  const server = await startTestServer({ dataDirectory: tempDirectory('tributary-mqtt-tx-') });
  cleanups.push(() => server.close());
  const saved = await server.call('POST', '/v1/config', config);
  expect(saved.json.success, JSON.stringify(saved.json)).toBe(true);
  return server;
}

async function subscriber(filter: string, port?: number): Promise<TestSubscriber> {
  const s = await new TestSubscriber(filter, port).start();
  cleanups.push(() => s.close());
  return s;
}

const transmitStatus = async (server: { call: TestServer['call'] }) => (await server.call('GET', '/v1/status')).json.response.last_data_transmit.uns;
const markers = async (server: { call: TestServer['call'] }) => ((await server.call('GET', '/v1/streams')).json.response as { markers: { category: string; message: string }[] }[]).flatMap((s) => s.markers);
const waitForMarker = (server: { call: TestServer['call'] }, category: string) => waitFor(async () => (await markers(server)).find((m) => m.category === category), 20_000, `a ${category} marker`);

describe('mqtt transmit (Mosquitto)', () => {
  it('publishes one JSON message per record to the topic of its stream, with additional_fields', async () => {
    const { prefix, plant } = mqttPlant({ additional_fields: { site: 'Plant 1', line: 3 } });
    const sub = await subscriber(`${prefix}/#`);
    await startAgent(plant.config);
    plant.write('press_a.csv', HEADER + rows(0, 3));
    plant.write('oven_a.csv', 'time,temp\n2026-01-05 06:00:01,215.5\n');
    await sub.waitForRecords(4);
    const press = sub.messages.filter((m) => m.topic === `${prefix}/Press_1/cycle`).map((m) => m.json);
    expect(press.map((r) => r.fieldvalues.part)).toEqual([0, 1, 2]);
    expect(press[0]).toEqual({
      asset: 'Press_1',
      stream_type: 'cycle',
      timestamp: '2026-01-05T06:00:00.000000Z',
      capturetime: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/),
      fieldvalues: { time: '2026-01-05T06:00:00.000000Z', part: 0, force: 1.5 },
      record_id: expect.any(String),
      site: 'Plant 1',
      line: 3,
    });
    expect(sub.messages.find((m) => m.topic === `${prefix}/Oven_2/process`)!.json.fieldvalues.temp).toBe(215.5);
  });

  it('sends JSON arrays of at most max_request_records records with message_format array', async () => {
    const { prefix, plant } = mqttPlant({ message_format: 'array', max_request_records: 100 });
    const sub = await subscriber(`${prefix}/#`);
    await startAgent(plant.config);
    plant.write('press_a.csv', HEADER + rows(0, 1000));
    const records = await sub.waitForRecords(1000);
    expect(records.map((r) => r.fieldvalues.part)).toEqual(Array.from({ length: 1000 }, (_, i) => i));
    expect(sub.messages.every((m) => Array.isArray(m.json) && m.json.length <= 100)).toBe(true);
    expect(sub.messages.length).toBeGreaterThanOrEqual(10);
  });

  it('carries messages both ways through the agent: subscribed from one topic tree, published into another', async () => {
    const id = crypto.randomBytes(4).toString('hex');
    const config = {
      data_receiver: [
        {
          data_receiver_name: 'machines',
          protocol: 'mqtt',
          connections: [{ host: '127.0.0.1', port: BROKER.port, username: BROKER.username, password: BROKER.password, client_id: `rx-${id}` }],
          streams: [{ asset: 'Press_1', stream_type: 'process', topic: `raw/${id}/press1/+`, payload_format: 'value', value_field: 'value', topic_field: 'source' }],
        },
      ],
      transforms: [],
      data_transmit: [{ transmit_name: 'uns', transmit_type: 'mqtt', filter_stream: ['*'], host: '127.0.0.1', port: BROKER.port, username: BROKER.username, password: BROKER.password, topic: `uns/${id}/{asset}/{stream_type}` }],
    };
    const sub = await subscriber(`uns/${id}/#`);
    const server = await startAgent(config);
    await waitFor(async () => (await server.call('GET', '/v1/status')).json.response.agent.services['receiver:machines']?.status === 'running', 15_000, 'the receiver');
    const client = await testClient();
    await client.publishAsync(`raw/${id}/press1/temperature`, '81.5', { qos: 1 });
    await client.publishAsync(`raw/${id}/press1/state`, 'Running', { qos: 1 });
    await client.endAsync();
    const records = await sub.waitForRecords(2);
    expect(sub.messages.every((m) => m.topic === `uns/${id}/Press_1/process`)).toBe(true);
    expect(records.map((r) => [r.fieldvalues.source, r.fieldvalues.value])).toEqual([
      [`raw/${id}/press1/temperature`, 81.5],
      [`raw/${id}/press1/state`, 'Running'],
    ]);
  });

  it('keeps every record while the password is wrong, says why, and sends them once it is fixed', async () => {
    const { prefix, plant } = mqttPlant({ password: 'wrong-password' });
    const sub = await subscriber(`${prefix}/#`);
    const server = await startAgent(plant.config);
    plant.write('press_a.csv', HEADER + rows(0, 500));
    const marker = await waitForMarker(server, 'login_refused');
    expect(marker.message).toContain('refused the login of user "tributary"');
    await waitFor(async () => (await transmitStatus(server)).last_error?.includes('The records are kept and sent when the broker takes them again') && (await transmitStatus(server)).backlog_records === 500, 20_000, '500 records kept in the outbox');

    const fixed = structuredClone(plant.config) as any;
    fixed.data_transmit[0].password = BROKER.password;
    expect((await server.call('POST', '/v1/config', fixed)).json.success).toBe(true);
    const records = await sub.waitForRecords(500);
    expect(new Set(records.map((r) => r.fieldvalues.part)).size).toBe(500);
    await waitFor(async () => (await transmitStatus(server)).backlog_records === 0, 20_000, 'an empty outbox');
    expect((await markers(server)).find((m) => m.category === 'login_refused')).toBeUndefined();
  });

  it('keeps the records when the broker refuses the topic (not authorized)', async () => {
    const { plant } = mqttPlant({ username: BROKER.limited.username, password: BROKER.limited.password, topic: 'denied/{asset}' });
    const server = await startAgent(plant.config);
    plant.write('press_a.csv', HEADER + rows(0, 20));
    const marker = await waitForMarker(server, 'not_authorized');
    expect(marker.message).toContain('refused messages on denied/Press_1 (not authorized');
    expect((await transmitStatus(server)).backlog_records).toBe(20);
  });

  it('refuses a broker with an untrusted TLS certificate, with a marker', async () => {
    const { plant } = mqttPlant({ port: BROKER.tlsPort, tls: true });
    const server = await startAgent(plant.config);
    plant.write('press_a.csv', HEADER + rows(0, 5));
    const marker = await waitForMarker(server, 'certificate_untrusted');
    expect(marker.message).toContain('is not trusted');
    await waitFor(async () => (await transmitStatus(server)).backlog_records === 5, 20_000, 'the records kept');
  });

  it('loses nothing when the broker is stopped mid-stream and started again', async () => {
    const broker = await PrivateBroker.start();
    cleanups.push(() => broker.close());
    const { prefix, plant } = mqttPlant({ port: broker.port, max_request_records: 200 });
    const sub = await subscriber(`${prefix}/#`, broker.port);
    const server = await startAgent(plant.config);
    const total = 6000;
    plant.write('press_a.csv', HEADER + rows(0, total / 2));
    await waitFor(() => sub.records().length > 0, 20_000, 'the first records');
    await broker.stop();
    plant.write('press_b.csv', HEADER + rows(total / 2, total));
    await waitForMarker(server, 'connection_lost');
    await waitFor(async () => (await transmitStatus(server)).backlog_records > 0, 20_000, 'a backlog while the broker is down');
    await broker.start();
    await sub.reconnect();
    await waitFor(() => new Set(sub.records().map((r) => r.fieldvalues.part)).size === total, 60_000, `${total} distinct records`);
    await waitFor(async () => (await transmitStatus(server)).backlog_records === 0, 20_000, 'an empty outbox');
  });

  it('loses nothing when the agent is killed (kill -9) mid-stream; duplicates keep their record_id', async () => {
    const { prefix, plant } = mqttPlant({ max_request_records: 100 });
    const sub = await subscriber(`${prefix}/#`);
    const dataDirectory = tempDirectory('tributary-mqtt-crash-');
    let agent: ServeProcess | undefined;
    cleanups.push(async () => agent?.crash());
    const perFile = 3000;
    for (let round = 0; round < 3; round += 1) {
      agent = await serveProcess(['--data-dir', dataDirectory, '--port', '0']);
      if (round === 0) expect((await agent.call('POST', '/v1/config', plant.config)).json.success).toBe(true);
      plant.write(`press_${round}.csv`, HEADER + rows(round * perFile, (round + 1) * perFile));
      const before = sub.records().length;
      // Killed while it publishes this round's records.
      await waitFor(() => sub.records().length > before, 20_000, 'records of this round');
      await agent.crash();
    }
    agent = await serveProcess(['--data-dir', dataDirectory, '--port', '0']);
    const total = 3 * perFile;
    await waitFor(() => new Set(sub.records().map((r) => r.fieldvalues.part)).size === total, 60_000, `${total} distinct records`);
    const idsByPart = new Map<number, Set<string>>();
    for (const record of sub.records()) idsByPart.set(record.fieldvalues.part, (idsByPart.get(record.fieldvalues.part) ?? new Set()).add(record.record_id));
    expect([...idsByPart.values()].every((ids) => ids.size === 1)).toBe(true);
  });
});
