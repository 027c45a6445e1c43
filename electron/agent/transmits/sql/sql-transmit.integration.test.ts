/**
 * The sql transmit against the real PostgreSQL and MariaDB of `npm run services` (issue 54): both
 * layouts, exactly once through a restream, a kill -9 of the agent while it delivers and a restart
 * of the database, a value that does not fit its column, a user without the right to create.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PRESS_HEADER, filePlant, pressRows, waitFor } from '../../../testing/file-plant.js';
import { type ServeProcess, serveProcess } from '../../../testing/serve-process.js';
import { SERVERS, type TestDialect, TestDatabase, serverScript, uniqueTable } from '../../../testing/sql/sql-test-support.js';
import { type TestServer, startTestServer, tempDirectory } from '../../../testing/test-host.js';

const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function sqlTransmit(dialect: TestDialect, table: string, layout: 'json' | 'wide', extra: Record<string, unknown> = {}) {
  const s = SERVERS[dialect];
  return { transmit_name: 'historian', transmit_type: 'sql', filter_stream: ['*'], host: '127.0.0.1', port: s.port, username: s.username, password: s.password, database_type: dialect, database_name: s.database, table, layout, poll_interval: 1, ...extra };
}

async function plantWith(dialect: TestDialect, table: string, layout: 'json' | 'wide') {
  const plant = filePlant();
  plant.config.data_transmit = [sqlTransmit(dialect, table, layout)] as never;
  const server = await startTestServer();
  cleanups.push(() => server.close());
  const saved = await server.call('POST', '/v1/config', plant.config);
  expect(saved.json.success, JSON.stringify(saved.json)).toBe(true);
  const db = await TestDatabase.open(dialect);
  cleanups.push(() => db.close());
  return { plant, server, db };
}

function asMariadbRoot(statements: string): void {
  execFileSync('mariadb', ['--no-defaults', '--socket=/tmp/tributary-mariadb/run/mysqld.sock', '-u', 'root', '-e', statements], { stdio: 'pipe' });
}

function asPostgres(statements: string): void {
  execFileSync('runuser', ['-u', 'postgres', '--', 'psql', '-q', '-v', 'ON_ERROR_STOP=1', '-h', '/tmp/tributary-postgres/run', '-p', '55432', '-U', 'postgres', '-d', 'tributary_test', '-c', statements], { stdio: 'pipe' });
}

async function dropTable(dialect: TestDialect, table: string): Promise<void> {
  const db = await TestDatabase.open(dialect);
  await db.exec(`DROP TABLE IF EXISTS ${table}`);
  await db.close();
}

const count = async (db: TestDatabase, table: string) => Number((await db.exec(`SELECT COUNT(*) AS n FROM ${table}`))[0]!.n);

async function markers(server: TestServer) {
  return ((await server.call('GET', '/v1/streams')).json.response as { asset: string; markers: { category: string; level: string; message: string }[] }[]).flatMap((s) => s.markers.map((m) => ({ ...m, asset: s.asset })));
}

describe.each(['postgresql', 'mysql'] as const)('the sql transmit into %s', (dialect) => {
  it('creates the json table, writes every record once, and a restream adds nothing', async () => {
    const table = uniqueTable('machine_data');
    const { plant, server, db } = await plantWith(dialect, table, 'json');
    cleanups.push(() => db.exec(`DROP TABLE IF EXISTS ${table}`));
    plant.write('press_1.csv', PRESS_HEADER + pressRows(0, 50));
    await waitFor(async () => (await db.tableExists(table)) && (await count(db, table)) === 50, 30_000, '50 rows in the table');
    const rows = await db.exec(`SELECT record_id, asset, stream_type, timestamp, fields FROM ${table} ORDER BY timestamp`);
    expect(rows[0]).toMatchObject({ asset: 'Press_1', stream_type: 'cycle' });
    const fields = (row: Record<string, unknown>) => (typeof row.fields === 'string' ? JSON.parse(row.fields) : row.fields) as { part: number; force: number };
    expect(rows.map((r) => fields(r).part)).toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect(fields(rows[3]!).force).toBe(4.5);
    // The record's own time, in UTC.
    const first = rows[0]!.timestamp;
    expect(first instanceof Date ? first.toISOString() : String(first)).toMatch(/^2026-01-05[T ]06:00:00/);
    const before = (await server.call('GET', '/v1/streams')).json.response[0].stats.transmits.historian;
    expect(before).toMatchObject({ sent: 50, waiting: 0 });

    const restream = await server.call('POST', '/v1/restream', { plant: [{ asset: 'Press_1', stream_type: 'cycle' }] });
    expect(restream.json.success, JSON.stringify(restream.json)).toBe(true);
    await waitFor(async () => (await server.call('GET', '/v1/streams')).json.response[0].stats.transmits.historian.sent >= 100, 30_000, 'the restreamed records delivered');
    expect(await count(db, table)).toBe(50);
  }, 90_000);

  it('writes one table per stream type with a column per field; a new field adds a column, a value that does not fit is NULL and named', async () => {
    const prefix = uniqueTable('wide');
    const table = `${prefix}_cycle`;
    const { plant, server, db } = await plantWith(dialect, prefix, 'wide');
    cleanups.push(() => db.exec(`DROP TABLE IF EXISTS ${table}`));
    plant.write('press_1.csv', PRESS_HEADER + pressRows(0, 10));
    await waitFor(async () => (await db.tableExists(table)) && (await count(db, table)) === 10, 30_000, '10 rows in the wide table');
    plant.write('press_2.csv', 'time,part,force,state\n2026-01-05 07:00:00,100,not measured,running\n2026-01-05 07:00:01,101,12.5,stopped\n');
    await waitFor(async () => (await count(db, table)) === 12, 30_000, 'the rows with a new field');
    const q = (name: string) => (dialect === 'mysql' ? `\`${name}\`` : `"${name}"`); // FORCE is a word of MariaDB's
    const rows = await db.exec(`SELECT ${q('part')}, ${q('force')}, ${q('state')} FROM ${table} WHERE ${q('part')} >= 100 ORDER BY ${q('part')}`);
    expect(rows.map((r) => [Number(r.part), r.force === null ? null : Number(r.force), r.state])).toEqual([[100, null, 'running'], [101, 12.5, 'stopped']]);
    const unfit = await waitFor(async () => (await markers(server)).find((m) => m.category === 'value_unfit'), 10_000, 'a value_unfit marker');
    expect(unfit.message).toMatch(new RegExp(`1 value\\(s\\) .*field "force" did not fit its column \\(number\\) in ${table}`));
  }, 90_000);

  it('loses and duplicates nothing when the agent is killed while it delivers and the database restarts', async () => {
    const table = uniqueTable('killed');
    const plant = filePlant();
    plant.config.data_transmit = [sqlTransmit(dialect, table, 'json', { batch_records: 500 })] as never;
    const dataDirectory = tempDirectory();
    const args = ['--data-dir', dataDirectory, '--port', '0', '--allow-write', path.dirname(plant.drop)];
    let agent: ServeProcess = await serveProcess(args);
    cleanups.push(() => agent.crash());
    expect((await agent.call('POST', '/v1/config', plant.config)).json.success).toBe(true);
    const db = await TestDatabase.open(dialect);
    cleanups.push(() => db.close());
    cleanups.push(() => dropTable(dialect, table));
    const total = 20_000;
    let text = PRESS_HEADER;
    for (let i = 0; i < total; i += 1) text += `2026-01-05 ${String(Math.floor(i / 3600)).padStart(2, '0')}:${String(Math.floor(i / 60) % 60).padStart(2, '0')}:${String(i % 60).padStart(2, '0')},${i},${i * 1.5}\n`;
    fs.writeFileSync(path.join(plant.drop, 'press_1.csv'), text);
    await waitFor(async () => (await db.tableExists(table)) && (await count(db, table)) > 0, 60_000, 'the first rows in the table');
    await agent.crash(); // kill -9 in the middle of the deliveries
    const atKill = await count(db, table);

    // The database goes away while the agent comes back: the records wait, then arrive.
    serverScript(dialect, '--stop');
    cleanups.push(() => serverScript(dialect));
    agent = await serveProcess(args);
    const down = await waitFor(async () => {
      const streams = (await agent.call('GET', '/v1/streams')).json.response as { markers: { category: string; message: string }[] }[];
      return streams.flatMap((s) => s.markers).find((m) => m.category === 'connect_failed');
    }, 30_000, 'a connect_failed marker while the database is down');
    expect(down.message).toMatch(/cannot be reached.*The records stay queued/);
    serverScript(dialect);
    const again = await TestDatabase.open(dialect);
    cleanups.push(() => again.close());
    await waitFor(async () => (await count(again, table)) === total, 120_000, `all ${total} rows after the kill and the restart (had ${atKill} at the kill)`);
    const parts = await again.exec(`SELECT COUNT(DISTINCT record_id) AS ids, MIN(timestamp) AS first FROM ${table}`);
    expect(Number(parts[0]!.ids)).toBe(total);
  }, 240_000);

  it('says in words that the user may not create the table, and writes once it exists', async () => {
    const table = uniqueTable('denied');
    const owner = await TestDatabase.open(dialect);
    cleanups.push(() => owner.close());
    const user = `tributary_ro_${table.slice(-8)}`;
    const s = SERVERS[dialect];
    if (dialect === 'postgresql') {
      // The test user may not create roles: PostgreSQL's superuser, through the socket.
      asPostgres(`CREATE ROLE ${user} LOGIN PASSWORD 'ro-pass-1234'; GRANT CONNECT ON DATABASE ${s.database} TO ${user}; REVOKE CREATE ON SCHEMA public FROM ${user}`);
      cleanups.push(async () => {
        await owner.exec(`DROP TABLE IF EXISTS ${table}`);
        asPostgres(`DROP OWNED BY ${user}; DROP ROLE IF EXISTS ${user}`);
      });
    } else {
      // The test user may not create users: MariaDB's root, through the socket.
      asMariadbRoot(`CREATE USER '${user}'@'127.0.0.1' IDENTIFIED BY 'ro-pass-1234'; GRANT SELECT ON ${s.database}.* TO '${user}'@'127.0.0.1'`);
      cleanups.push(async () => {
        await owner.exec(`DROP TABLE IF EXISTS ${table}`);
        asMariadbRoot(`DROP USER IF EXISTS '${user}'@'127.0.0.1'`);
      });
    }
    const plant = filePlant();
    plant.config.data_transmit = [sqlTransmit(dialect, table, 'json', { username: user, password: 'ro-pass-1234' })] as never;
    const server = await startTestServer();
    cleanups.push(() => server.close());
    expect((await server.call('POST', '/v1/config', plant.config)).json.success).toBe(true);
    plant.write('press_1.csv', PRESS_HEADER + pressRows(0, 5));
    const denied = await waitFor(async () => (await markers(server)).find((m) => m.category === 'permission_denied'), 30_000, 'a permission_denied marker');
    expect(denied.message).toMatch(new RegExp(`The user "${user}" may not create the table ${table} in .* Grant it CREATE`));
    // The plant's DBA creates the table and grants INSERT: the queued records arrive.
    if (dialect === 'postgresql') {
      await owner.exec(`CREATE TABLE ${table} (record_id text PRIMARY KEY, asset text NOT NULL, stream_type text NOT NULL, "timestamp" timestamptz NOT NULL, fields jsonb NOT NULL)`);
      await owner.exec(`GRANT SELECT, INSERT ON ${table} TO ${user}`);
    } else {
      await owner.exec(`CREATE TABLE ${table} (record_id varchar(191) PRIMARY KEY, asset varchar(255) NOT NULL, stream_type varchar(255) NOT NULL, \`timestamp\` datetime(6) NOT NULL, fields json NOT NULL)`);
      asMariadbRoot(`GRANT SELECT, INSERT, UPDATE, CREATE ON ${s.database}.${table} TO '${user}'@'127.0.0.1'`);
    }
    await waitFor(async () => (await count(owner, table)) === 5, 90_000, 'the queued rows once the table exists');
  }, 150_000);
});

// PostgreSQL keeps no NUL character in a text or a jsonb string (MariaDB does): a record holding one
// must not hold back the records around it or those that come later, in either layout.
describe.each(['json', 'wide'] as const)('the sql transmit into postgresql, layout %s, given a value the database refuses', (layout) => {
  it('sets that record aside with a marker in the database\'s words and writes all the others', async () => {
    const prefix = uniqueTable('refused');
    const table = layout === 'wide' ? `${prefix}_cycle` : prefix;
    const { plant, server, db } = await plantWith('postgresql', prefix, layout);
    cleanups.push(() => db.exec(`DROP TABLE IF EXISTS ${table}`));
    const rows = Array.from({ length: 40 }, (_, i) => `2026-01-05 07:00:${String(i).padStart(2, '0')},${i},1.5,${i === 17 ? 'run\u0000ning' : 'running'}\n`);
    plant.write('press_1.csv', `time,part,force,state\n${rows.join('')}`);
    await waitFor(async () => (await db.tableExists(table)) && (await count(db, table)) === 39, 30_000, '39 rows in the table');
    const refused = await waitFor(async () => (await markers(server)).find((m) => m.category === 'record_refused'), 10_000, 'a record_refused marker');
    expect(refused).toMatchObject({ asset: 'Press_1', level: 'warning' });
    expect(refused.message).toMatch(/^1 record\(s\) set aside, the others were written: .*refused a value .*07:00:17/);
    const flow = async () => (await server.call('GET', '/v1/streams')).json.response[0].stats.transmits.historian;
    await waitFor(async () => (await flow()).waiting === 0, 10_000, 'nothing waiting');
    // Later records are not held back either.
    plant.write('press_2.csv', PRESS_HEADER + pressRows(100, 105));
    await waitFor(async () => (await count(db, table)) === 44, 30_000, 'the next file\'s rows');
  }, 90_000);
});
