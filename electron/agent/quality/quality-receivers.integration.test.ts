/**
 * The data-quality watch on each kind of receiver, through the agent's API: files (a file plant),
 * MQTT (the Mosquitto of scripts/ci/start-mosquitto.sh), SQL (the PostgreSQL of
 * scripts/ci/start-postgres.sh) and OPC UA (the test plant's server, polled). Each opens findings
 * from what the source sends, shows them in GET /v1/streams, and closes them when the data is fine.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { filePlant, waitFor } from '../../testing/file-plant.js';
import { BROKER, testClient } from '../../testing/mqtt-broker.js';
import { startAgent } from '../../testing/opcua/opcua-plant.js';
import { OpcuaTestServer } from '../../testing/opcua/opcua-test-server.js';
import { SERVERS, TestDatabase, uniqueTable } from '../../testing/sql/sql-test-support.js';
import { type TestServer, startTestServer, tempDirectory } from '../../testing/test-host.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Finding {
  check: string;
  field: string | null;
  since: string;
  detail: string;
}
const findings = async (server: TestServer, stream: string): Promise<Finding[]> =>
  ((await server.call('GET', '/v1/streams')).json.response as { stream: string; quality: Finding[] }[]).find((s) => s.stream === stream)?.quality ?? [];
const waitForFinding = (server: TestServer, stream: string, check: string, ms = 30_000) =>
  waitFor(async () => (await findings(server, stream)).find((f) => f.check === check), ms, `a ${check} finding on ${stream}`);
const waitForNone = (server: TestServer, stream: string, check: string, ms = 30_000) =>
  waitFor(async () => !(await findings(server, stream)).some((f) => f.check === check) && true, ms, `the ${check} finding on ${stream} to close`);

async function save(server: TestServer, config: unknown): Promise<void> {
  const saved = await server.call('POST', '/v1/config', config);
  expect(saved.json.success, JSON.stringify(saved.json)).toBe(true);
}

const QUALITY = [{ filter_stream: ['*'], stuck: { after_seconds: 3, min_records: 4 }, range: { force: [0, 1000] }, clock: { max_ahead_seconds: 300 } }];
const at = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');

describe('data-quality watch on each receiver kind', () => {
  it('files: opens stuck, range, clock and schema findings, shows them in /metrics and the log, keeps them across a restart, and closes them', async () => {
    const plant = filePlant();
    const dataDirectory = tempDirectory();
    let server = await startTestServer({ dataDirectory });
    cleanups.push(() => server.close());
    await save(server, { ...plant.config, data_quality: QUALITY });
    const base = Math.floor(Date.now() / 1000) * 1000 - 3600_000;
    const rows = (from: number, values: number[], force = 10) => values.map((v, i) => `${at(base + (from + i) * 1000)},${v},${force}\n`).join('');
    // part is frozen at 7 for 9 s of record time; force once out of range.
    plant.write('press_1.csv', `time,part,force\n${rows(0, [1, 2, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7])}${at(base + 20_000)},7,1500\n`);
    const stuck = await waitForFinding(server, 'Press_1:cycle', 'stuck');
    expect(stuck).toMatchObject({ field: 'part', since: new Date(base + 2000).toISOString(), detail: expect.stringMatching(/^part has read 7 for \d+ s \(\d+ records\)$/) });
    expect(await waitForFinding(server, 'Press_1:cycle', 'range')).toMatchObject({ field: 'force', detail: 'force read 1500, outside [0, 1000] (1 record out of range)' });
    // Another stream's columns change between two files; its clock is 2 hours ahead.
    plant.write('oven_1.csv', `time,temp\n${at(base)},180\n`);
    await waitFor(async () => (await server.call('GET', '/v1/streams')).json.response.find((s: any) => s.stream === 'Oven_2:process').stats.records_read > 0, 20_000, 'the first oven file');
    plant.write('oven_2.csv', `time,temp,humidity\n${at(Date.now() + 2 * 3600_000)},181,3\n`);
    expect((await waitForFinding(server, 'Oven_2:process', 'schema')).detail).toBe('the columns changed: added humidity');
    expect((await waitForFinding(server, 'Oven_2:process', 'clock')).detail).toMatch(/is (1 h 59 min|2 h) ahead of this PC's clock$/);
    const metrics = await (await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${server.token}` } })).text();
    expect(metrics).toMatch(/^tributary_quality_findings\{asset="Press_1",stream_type="cycle",check="stuck"\} 1$/m);
    expect(metrics).toMatch(/^tributary_quality_findings\{asset="Oven_2",stream_type="process",check="schema"\} 1$/m);
    const log = () => fs.readFileSync(path.join(dataDirectory, 'logs', 'agent_core.log'), 'utf8');
    expect(log()).toMatch(/\| WARNING \| Data quality of Press_1:cycle: stuck \(part\): part has read 7 for/);

    await server.close();
    server = await startTestServer({ dataDirectory });
    expect((await findings(server, 'Press_1:cycle')).map((f) => f.check).sort()).toEqual(['range', 'stuck']);
    // New rows: part changes, force back in range.
    plant.write('press_2.csv', `time,part,force\n${rows(30, [8, 9], 20)}`);
    await waitForNone(server, 'Press_1:cycle', 'stuck');
    await waitForNone(server, 'Press_1:cycle', 'range');
    expect(log()).toMatch(/\| INFO \| Data quality of Press_1:cycle: stuck \(part\) ended after/);
    // A stuck finding's times are record times (an hour ago here): the history's last two hours hold it.
    const history = (await server.call('GET', '/v1/history?minutes=120')).json.response;
    // force read 10 for the first 12 rows, then 1500: a stuck stretch that began and ended within the file.
    expect(history.quality.filter((f: any) => f.asset === 'Press_1').map((f: any) => [f.check, f.field, f.until !== null])).toEqual([['stuck', 'force', true], ['stuck', 'part', true], ['range', 'force', true]]);
  }, 90_000);

  it('MQTT: a frozen value opens stuck, a value out of range range, a message 2 h ahead clock, new fields schema, silence gap; each closes', async () => {
    const id = crypto.randomBytes(4).toString('hex');
    const broker = { host: '127.0.0.1', port: BROKER.port, username: BROKER.username, password: BROKER.password };
    const server = await startTestServer();
    cleanups.push(() => server.close());
    await save(server, {
      data_receiver: [{ data_receiver_name: 'machines', protocol: 'mqtt', connections: [{ ...broker, client_id: `quality-${id}`, timeout: 5 }], streams: [{ asset: 'Press_1', stream_type: 'cycle', topic: `test/${id}/#`, timestamp_field: 'ts', timestamp_unit: 'ms' }] }],
      transforms: [],
      data_transmit: [{ transmit_name: 'archive', transmit_type: 'csv', filter_stream: ['*'], directory: path.join(server.dataDirectory, 'outbox') }],
      data_quality: [{ filter_stream: ['*'], stuck: { after_seconds: 3, min_records: 4, fields: ['force'] }, range: { pressure: [0, 1000] }, gap: { after_seconds: 3 } }],
    });
    await waitFor(async () => (await server.call('GET', '/v1/status')).json.response.agent.services['receiver:machines']?.status === 'running', 20_000, 'the receiver');
    const publisher = await testClient();
    cleanups.push(() => publisher.endAsync(true));
    const t0 = Date.now() - 60_000;
    for (let i = 0; i < 6; i += 1) await publisher.publishAsync(`test/${id}/press`, JSON.stringify({ ts: t0 + i * 1000, force: 5, pressure: i === 5 ? 2000 : i }), { qos: 1 });
    expect((await waitForFinding(server, 'Press_1:cycle', 'stuck')).detail).toBe('force has read 5 for 5 s (6 records)');
    expect((await waitForFinding(server, 'Press_1:cycle', 'range')).detail).toBe('pressure read 2000, outside [0, 1000] (1 record out of range)');
    await publisher.publishAsync(`test/${id}/press`, JSON.stringify({ ts: t0 + 7000, force: 6, pressure: 7 }), { qos: 1 });
    await waitForNone(server, 'Press_1:cycle', 'stuck');
    await waitForNone(server, 'Press_1:cycle', 'range');
    await publisher.publishAsync(`test/${id}/press`, JSON.stringify({ ts: Date.now() + 2 * 3600_000, force: 7, pressure: 8, speed: 1 }), { qos: 1 });
    expect((await waitForFinding(server, 'Press_1:cycle', 'clock')).detail).toMatch(/is (1 h 59 min|2 h) ahead of this PC's clock$/);
    expect((await waitForFinding(server, 'Press_1:cycle', 'schema')).detail).toBe('the columns changed: added speed');
    await publisher.publishAsync(`test/${id}/press`, JSON.stringify({ ts: Date.now(), force: 8, pressure: 9 }), { qos: 1 });
    await waitForNone(server, 'Press_1:cycle', 'clock');
    // The columns changed back: the schema finding closes.
    await waitForNone(server, 'Press_1:cycle', 'schema');
    // No message for 3 s: a gap; the next message closes it.
    expect((await waitForFinding(server, 'Press_1:cycle', 'gap', 20_000)).detail).toMatch(/^no record for \d+ s/);
    await publisher.publishAsync(`test/${id}/press`, JSON.stringify({ ts: Date.now(), force: 9, pressure: 10 }), { qos: 1 });
    await waitForNone(server, 'Press_1:cycle', 'gap');
  }, 60_000);

  it('SQL (PostgreSQL): rows with one value open stuck, a row out of range range, no new row gap; each closes', async () => {
    const db = await TestDatabase.open('postgresql');
    cleanups.push(() => db.close());
    const t = uniqueTable('quality');
    await db.exec(`CREATE TABLE ${t} (id bigserial PRIMARY KEY, at timestamptz NOT NULL, force double precision NOT NULL)`);
    const t0 = Date.now() - 60_000;
    const insert = (i: number, force: number) => db.exec(`INSERT INTO ${t} (at, force) VALUES ('${new Date(t0 + i * 1000).toISOString()}', ${force})`);
    for (let i = 0; i < 6; i += 1) await insert(i, 42.5);
    const s = SERVERS.postgresql;
    const server = await startTestServer();
    cleanups.push(() => server.close());
    await save(server, {
      data_receiver: [{ data_receiver_name: 'mes', protocol: 'sql', poll_interval: 1, connections: [{ host: '127.0.0.1', port: s.port, username: s.username, password: s.password, database_type: 'postgresql', database_name: s.database, ssl: false }], streams: [{ asset: 'Line_1', stream_type: 'orders', query: `SELECT id, at, force FROM ${t} WHERE id > :id ORDER BY id`, state_fields: [{ column_name: 'id', data_type: 'integer', initial_value: 0 }], timestamp_column: 'at' }] }],
      transforms: [],
      data_transmit: [{ transmit_name: 'archive', transmit_type: 'csv', filter_stream: ['*'], directory: path.join(server.dataDirectory, 'outbox') }],
      data_quality: [{ filter_stream: ['Line_1:orders'], stuck: { after_seconds: 3, min_records: 4, fields: ['force'] }, range: { force: [0, 100] }, gap: { after_seconds: 3 } }],
    });
    expect((await waitForFinding(server, 'Line_1:orders', 'stuck')).detail).toBe('force has read 42.5 for 5 s (6 records)');
    await insert(6, 143);
    await waitForNone(server, 'Line_1:orders', 'stuck');
    expect((await waitForFinding(server, 'Line_1:orders', 'range')).detail).toBe('force read 143, outside [0, 100] (1 record out of range)');
    // No new row for 3 s: a gap; a new row (in range) closes both.
    expect((await waitForFinding(server, 'Line_1:orders', 'gap', 20_000)).detail).toMatch(/^no record for \d+ s/);
    await insert(7, 44);
    await waitForNone(server, 'Line_1:orders', 'gap');
    await waitForNone(server, 'Line_1:orders', 'range');
  }, 60_000);

  it('OPC UA (test plant, polled): a tag that keeps reading one value opens stuck; a new value closes it', async () => {
    const plc = await OpcuaTestServer.start({ pkiFolder: tempDirectory('opcua-server-pki-') });
    cleanups.push(() => plc.stop());
    const agent = await startAgent({ connection: { host: '127.0.0.1', port: plc.port }, read_mode: 'polling', poll_interval: 1, streams: [{ asset: 'Line_1', stream_type: 'process', opcua_tags: [{ name: 'ns=2;s=Double', exportname: 'double' }] }] });
    cleanups.push(() => agent.close());
    const config = (await agent.server.call('GET', '/v1/config')).json.response;
    await save(agent.server, { ...config, data_quality: [{ filter_stream: ['*'], stuck: { after_seconds: 2, min_records: 3, fields: ['double'] } }] });
    // The sensor reports every 300 ms, always 21.25.
    const sensor = setInterval(() => plc.set('Double', 21.25, { sourceTimestamp: new Date() }), 300);
    cleanups.push(async () => clearInterval(sensor));
    expect((await waitForFinding(agent.server, 'Line_1:process', 'stuck')).detail).toMatch(/^double has read 21\.25 for \d+ s \(\d+ records\)$/);
    clearInterval(sensor);
    plc.set('Double', 22, { sourceTimestamp: new Date() });
    await waitForNone(agent.server, 'Line_1:process', 'stuck');
  }, 90_000);
});
