/**
 * The influxdb transmit against Debian's InfluxDB 1.6 from `npm run services` (issue 54): points
 * with their tags and types, a field type conflict set aside without blocking the rest, an outage
 * of the database. The 2.x/3.x API (org, bucket, token) cannot run here (Debian ships 1.x): its
 * request (path, token, gzip, precision) is checked against a recording HTTP server.
 */
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { PRESS_HEADER, filePlant, pressRows, waitFor } from '../../../testing/file-plant.js';
import { type TestServer, startTestServer } from '../../../testing/test-host.js';

const INFLUX = 'http://127.0.0.1:58086';
const SCRIPT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../scripts/ci/start-influxdb.sh');
const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function influxQuery(database: string, q: string): Promise<{ columns: string[]; values: unknown[][] }[]> {
  const reply = await fetch(`${INFLUX}/query?${new URLSearchParams({ db: database, q })}`, { method: 'POST' });
  const json = (await reply.json()) as { results: { series?: { columns: string[]; values: unknown[][] }[]; error?: string }[] };
  if (json.results[0]?.error) throw new Error(json.results[0].error);
  return json.results[0]?.series ?? [];
}

async function plantInto(database: string, extra: Record<string, unknown> = {}): Promise<{ plant: ReturnType<typeof filePlant>; server: TestServer }> {
  const plant = filePlant();
  plant.config.data_transmit = [{ transmit_name: 'grafana', transmit_type: 'influxdb', url: INFLUX, database, poll_interval: 1, ...extra }] as never;
  const server = await startTestServer();
  cleanups.push(() => server.close());
  const saved = await server.call('POST', '/v1/config', plant.config);
  expect(saved.json.success, JSON.stringify(saved.json)).toBe(true);
  return { plant, server };
}

async function newDatabase(): Promise<string> {
  const database = `tributary_${crypto.randomBytes(4).toString('hex')}`;
  await influxQuery('', `CREATE DATABASE ${database}`);
  cleanups.push(() => influxQuery('', `DROP DATABASE ${database}`).catch(() => undefined));
  return database;
}

const markersOf = async (server: TestServer) =>
  ((await server.call('GET', '/v1/streams')).json.response as { markers: { category: string; message: string }[] }[]).flatMap((s) => s.markers);

describe('the influxdb transmit into InfluxDB 1.x', () => {
  it('writes one point per record: measurement the stream type, tag asset, floats, the record\'s time', async () => {
    const database = await newDatabase();
    const { plant, server } = await plantInto(database);
    plant.write('press_1.csv', PRESS_HEADER + pressRows(0, 50));
    await waitFor(async () => (await influxQuery(database, 'SELECT count(force) FROM cycle'))[0]?.values[0]?.[1] === 50, 30_000, '50 points');
    const [series] = await influxQuery(database, `SELECT * FROM cycle WHERE asset = 'Press_1' ORDER BY time LIMIT 2`);
    expect(series!.columns).toEqual(['time', 'asset', 'force', 'part']);
    expect(series!.values[0]).toEqual(['2026-01-05T06:00:00Z', 'Press_1', 0, 0]);
    expect(series!.values[1]).toEqual(['2026-01-05T06:00:01Z', 'Press_1', 1.5, 1]);
    const types = await influxQuery(database, 'SHOW FIELD KEYS FROM cycle');
    expect(types[0]!.values).toEqual([['force', 'float'], ['part', 'float']]);
    expect((await server.call('GET', '/v1/streams')).json.response[0].stats.transmits.grafana).toMatchObject({ sent: 50, waiting: 0 });
  }, 60_000);

  it('sets a point with a conflicting field type aside with a marker, and writes the others', async () => {
    const database = await newDatabase();
    const { plant, server } = await plantInto(database);
    plant.write('press_1.csv', PRESS_HEADER + pressRows(0, 5));
    await waitFor(async () => (await influxQuery(database, 'SELECT count(part) FROM cycle'))[0]?.values[0]?.[1] === 5, 30_000, 'the first 5 points');
    plant.write('press_2.csv', 'time,part,force\n2026-01-05 07:00:00,100,12.5\n2026-01-05 07:00:01,101,not measured\n2026-01-05 07:00:02,102,13.5\n');
    const marker = await waitFor(async () => (await markersOf(server)).find((m) => m.category === 'point_refused'), 30_000, 'a point_refused marker');
    expect(marker.message).toMatch(/1 point\(s\) set aside: InfluxDB refused it: .*field type conflict.*"force".*"cycle"/);
    await waitFor(async () => (await influxQuery(database, 'SELECT count(part) FROM cycle'))[0]?.values[0]?.[1] === 7, 30_000, 'the 2 good points of the second file');
    expect((await server.call('GET', '/v1/streams')).json.response[0].stats.transmits.grafana.waiting).toBe(0);
  }, 60_000);

  it('keeps the records while the database is down and writes them when it is back', async () => {
    const database = await newDatabase();
    const { plant, server } = await plantInto(database);
    execFileSync('bash', [SCRIPT, '--stop'], { stdio: 'pipe' });
    cleanups.push(() => execFileSync('bash', [SCRIPT], { stdio: 'pipe' }));
    plant.write('press_1.csv', PRESS_HEADER + pressRows(0, 20));
    const down = await waitFor(async () => (await markersOf(server)).find((m) => m.category === 'connect_failed'), 30_000, 'a connect_failed marker');
    expect(down.message).toMatch(/InfluxDB at http:\/\/127\.0\.0\.1:58086 cannot be reached .*The records stay queued/);
    execFileSync('bash', [SCRIPT], { stdio: 'pipe' });
    await waitFor(async () => (await influxQuery(database, 'SELECT count(part) FROM cycle').catch(() => []))[0]?.values[0]?.[1] === 20, 90_000, 'the 20 points after the outage');
    await waitFor(async () => !(await markersOf(server)).some((m) => m.category === 'connect_failed'), 10_000, 'the marker to go');
  }, 150_000);
});

describe('the influxdb transmit to InfluxDB 2.x/3.x', () => {
  it('posts gzip line protocol to /api/v2/write with org, bucket, precision us and the token', async () => {
    const requests: { url: string; auth?: string; encoding?: string; body: string }[] = [];
    const recorder = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (c: Buffer) => chunks.push(c));
      request.on('end', () => {
        requests.push({ url: request.url!, auth: request.headers.authorization, encoding: request.headers['content-encoding'], body: zlib.gunzipSync(Buffer.concat(chunks)).toString() });
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => recorder.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => recorder.close(resolve)));
    const port = (recorder.address() as { port: number }).port;
    const plant = filePlant();
    plant.config.data_transmit = [{ transmit_name: 'cloud_influx', transmit_type: 'influxdb', url: `http://127.0.0.1:${port}`, org: 'acme', bucket: 'line 2', token: 'tok-123', tag_fields: ['part'], integers: true, poll_interval: 1 }] as never;
    const server = await startTestServer();
    cleanups.push(() => server.close());
    expect((await server.call('POST', '/v1/config', plant.config)).json.success).toBe(true);
    plant.write('press_1.csv', PRESS_HEADER + pressRows(0, 2));
    await waitFor(() => requests.length > 0, 30_000, 'a write request');
    expect(requests[0]).toMatchObject({ url: '/api/v2/write?org=acme&bucket=line+2&precision=us', auth: 'Token tok-123', encoding: 'gzip' });
    expect(requests[0]!.body.split('\n')).toEqual(['cycle,asset=Press_1,part=0 force=0i 1767592800000000', 'cycle,asset=Press_1,part=1 force=1.5 1767592801000000']);
  }, 60_000);
});
