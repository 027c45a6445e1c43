/**
 * End-to-end tests of the SQL receiver against one real database server, shared by the PostgreSQL
 * and the MariaDB test files: agent → remotedatapost → ingest server, tables seeded here.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../file-plant.js';
import { createSqlDriver } from '../../agent/receivers/sql/sql-receiver.js';
import { prepareStatement } from '../../agent/receivers/sql/sql-driver.js';
import { AgentUnderTest, DDL, type DeliveredRecord, SERVERS, type TestDialect, TestDatabase, fieldsOf, serverScript, sqlConfiguration, uniqueTable } from './sql-test-support.js';
import { Logger, Redactor } from '../../agent/logging/logger.js';
import { SystemClock } from '../../agent/time/clock.js';
import type { LogFile } from '../../agent/logging/log-file.js';

const silentLogger = () => new Logger({ append: () => undefined } as unknown as LogFile, new Redactor(), new SystemClock(), 'test');

export function describeSqlReceiver(dialect: TestDialect): void {
  const ddl = DDL[dialect];
  let db: TestDatabase;
  let agent: AgentUnderTest | undefined;

  beforeAll(async () => {
    db = await TestDatabase.open(dialect);
  });
  afterAll(async () => {
    await db?.close();
  });
  afterEach(async () => {
    await agent?.close();
    agent = undefined;
  });

  const startAgent = async (config: (url: string) => unknown) => {
    agent = await AgentUnderTest.create();
    await agent.start(config(agent.ingest.url));
    return agent;
  };

  describe(`SQL receiver on ${SERVERS[dialect].product}`, () => {
    it('reads new rows by integer id while rows are inserted: NULLs, decimals, unicode and very wide rows exactly', async () => {
      const t = uniqueTable('orders');
      await db.exec(`CREATE TABLE ${t} (id ${ddl.id}, name varchar(200) NOT NULL, qty decimal(12,4), big bigint, note ${ddl.text} NULL)`);
      await db.insert(t, [1, 2, 3].map((k) => ({ name: `order ${k}`, qty: `${k}.5000`, big: k, note: null })));
      const a = await startAgent((url) => sqlConfiguration(dialect, url, [{ query: `SELECT * FROM ${t} WHERE id > :id ORDER BY id`, state_fields: [{ column_name: 'id', data_type: 'integer' }] }]));
      await a.waitForRecords(3);
      const wide = 'x'.repeat(300_000);
      await db.insert(t, [
        { name: 'Grüße aus Köln – 東京 🚀', qty: '12345678.1234', big: '9007199254740993', note: 'ünïcödé' },
        { name: 'wide', qty: null, big: null, note: wide },
      ]);
      const records = await a.waitForRecords(5);
      await new Promise((r) => setTimeout(r, 1500)); // two more polls: nothing may come twice
      const rows = fieldsOf(a.records());
      expect(rows).toHaveLength(5);
      rows.sort((x, y) => Number(x.id) - Number(y.id));
      expect(rows.map((r) => Number(r.id))).toEqual([1, 2, 3, 4, 5]);
      expect(rows[0]).toEqual({ id: 1, name: 'order 1', qty: 1.5, big: 1, note: null });
      expect(rows[3]).toEqual({ id: 4, name: 'Grüße aus Köln – 東京 🚀', qty: 12345678.1234, big: '9007199254740993', note: 'ünïcödé' });
      expect(rows[4]).toMatchObject({ qty: null, big: null });
      expect((rows[4]!.note as string).length).toBe(300_000);
      // No datetime state field and no timestamp_column: the time stamp is the time of reading.
      expect(records[0]!.timestamp.getTime()).toBe(records[0]!.capturetime.getTime());
      const services = (await a.server!.call('GET', '/v1/status')).json.response.agent.services;
      expect(services['receiver:mes']).toMatchObject({ status: 'running', health: 'ok' });
    });

    it('drains a backlog by time stamp in bounded polls, never splits equal time stamps, and resumes after a restart without gaps or duplicates', async () => {
      const t = uniqueTable('events');
      await db.exec(`CREATE TABLE ${t} (id ${ddl.id}, ts ${ddl.datetime} NOT NULL, v int NOT NULL)`);
      // 3000 rows, three per time stamp (ties), microseconds apart: 06:00:00.000001, .000002 …
      const total = 3000;
      const stamp = (k: number) => `2026-01-05 06:00:${String(Math.floor(k / 1_000_000)).padStart(2, '0')}.${String(k % 1_000_000).padStart(6, '0')}`;
      await db.insert(t, Array.from({ length: total }, (_, i) => ({ ts: stamp(Math.floor(i / 3) + 1), v: i })));
      const config = (url: string) =>
        sqlConfiguration(dialect, url, [{ stream_type: 'events', query: `SELECT ts, v FROM ${t} WHERE ts > :ts ORDER BY ts, v`, state_fields: [{ column_name: 'ts', data_type: 'datetime' }] }], {
          receiver: { max_rows_per_poll: 250 },
          connection: { timezone: 'Europe/Berlin' },
          csv: true,
        });
      const a = await startAgent(config);
      await waitFor(() => a.csvRows('events').length > 0, 30_000, 'the first rows');
      await a.stopHost(); // in the middle of the backlog
      expect(a.csvRows('events').length).toBeLessThan(total);
      await a.start();
      await waitFor(() => a.csvRows('events').length >= total, 60_000, `${total} rows`);
      await new Promise((r) => setTimeout(r, 1200));
      const rows = a.csvRows('events');
      expect(new Set(rows.map((r) => r.record_id)).size).toBe(rows.length);
      expect(rows.map((r) => Number(r.v)).sort((x, y) => x - y)).toEqual(Array.from({ length: total }, (_, i) => i));
      // Naive date-times are read in the connection's time zone: 06:00 in Berlin is 05:00 UTC.
      const first = rows.find((r) => r.v === '0')!;
      expect(first.ts).toBe('2026-01-05T05:00:00.000001Z');
      expect(first.timestamp).toBe('2026-01-05T05:00:00.000001Z');
      // Each poll stays within max_rows_per_poll, and the backlog took several: the read summaries
      // (written when the agent stops) say how many reads and the most rows of one.
      await a.stopHost();
      const lines = fs.readFileSync(path.join(a.dataDirectory, 'logs', 'agent_core.log'), 'utf8').split('\n');
      const reads = lines.flatMap((l) => {
        const m = /events: ([\d,]+) rows? read(?: in the last \d+ s \((\d+) reads?(?:, at most ([\d,]+) in one)?\))?$/.exec(l);
        if (!m) return [];
        const count = (text: string | undefined) => Number((text ?? '').replace(/,/g, ''));
        return [{ reads: m[2] === undefined ? 1 : count(m[2]), most: count(m[3] ?? m[1]) }];
      });
      expect(reads.reduce((n, r) => n + r.reads, 0)).toBeGreaterThanOrEqual(Math.ceil(total / 250));
      expect(Math.max(...reads.map((r) => r.most))).toBeLessThanOrEqual(250);
      expect(lines.some((l) => /max_rows_per_poll 250 reached/.test(l))).toBe(true);
    }, 90_000);

    it('restream sends the stream again with the same record ids; initial_value decides where reading starts', async () => {
      const t = uniqueTable('restream');
      await db.exec(`CREATE TABLE ${t} (id ${ddl.id}, v int)`);
      await db.insert(t, [1, 2, 3, 4, 5].map((v) => ({ v })));
      const a = await startAgent((url) =>
        sqlConfiguration(dialect, url, [{ query: `SELECT id, v FROM ${t} WHERE id > :id ORDER BY id`, state_fields: [{ column_name: 'id', data_type: 'integer', initial_value: 2 }] }]),
      );
      const first = await a.waitForRecords(3);
      const byV = (records: DeliveredRecord[]) => [...records].sort((x, y) => Number(x.fieldvalues.v) - Number(y.fieldvalues.v));
      expect(byV(first).map((r) => r.fieldvalues.v)).toEqual([3, 4, 5]);
      const { json } = await a.server!.call('POST', '/v1/restream', { mes: [{ asset: 'Line_1', stream_type: 'orders' }] });
      expect(json.success, JSON.stringify(json)).toBe(true);
      const again = await a.waitForRecords(6);
      expect(byV(again.slice(3)).map((r) => r.record_id)).toEqual(byV(first).map((r) => r.record_id));
    });

    it('binds state values as parameters: quotes and SQL in a value are data, never code', async () => {
      const t = uniqueTable('names');
      const victim = uniqueTable('victim');
      await db.exec(`CREATE TABLE ${victim} (keep int)`);
      await db.exec(`INSERT INTO ${victim} (keep) VALUES (1)`);
      await db.exec(`CREATE TABLE ${t} (name varchar(200) PRIMARY KEY, n int)`);
      const evil = [`a'); DROP TABLE ${victim}; --`, `b' OR '1'='1`, `c\\'; DELETE FROM ${victim}; #`, 'd"; DROP TABLE x; --'];
      await db.insert(t, evil.map((name, n) => ({ name, n })));
      const a = await startAgent((url) =>
        sqlConfiguration(dialect, url, [
          { query: `SELECT name, n FROM ${t} WHERE name > :name ORDER BY name`, state_fields: [{ column_name: 'name', data_type: 'string', initial_value: `' OR 1=1; DROP TABLE ${victim}; --` }] },
        ]),
      );
      await a.waitForRecords(4);
      // The stored state is now the last name, which holds a quote: the next polls bind it again.
      await db.insert(t, [{ name: `e' UNION SELECT 'x', 1; --`, n: 4 }]);
      await a.waitForRecords(5);
      await new Promise((r) => setTimeout(r, 1500));
      expect(fieldsOf(a.records()).map((r) => r.name).sort()).toEqual([...evil, `e' UNION SELECT 'x', 1; --`].sort());
      expect(await db.tableExists(victim)).toBe(true);
      expect(await db.exec(`SELECT keep FROM ${victim}`)).toHaveLength(1);
    });

    it('refuses a second statement in the stream definition: the configuration is refused, and the server itself refuses it', async () => {
      const victim = uniqueTable('victim');
      await db.exec(`CREATE TABLE ${victim} (keep int)`);
      const query = `SELECT keep AS id FROM ${victim} WHERE keep > :id; DROP TABLE ${victim}`;
      agent = await AgentUnderTest.create();
      const server = await agent.start();
      const saved = await server.call('POST', '/v1/config', sqlConfiguration(dialect, agent.ingest.url, [{ query, state_fields: [{ column_name: 'id', data_type: 'integer' }] }]));
      expect(saved.json.success).toBe(false);
      expect(JSON.stringify(saved.json.response.violations)).toMatch(/more than one statement/);
      // Below validation, the driver sends it as one prepared statement, which the server refuses whole.
      const s = SERVERS[dialect];
      const driver = createSqlDriver({ host: '127.0.0.1', port: s.port, username: s.username, password: s.password, database_type: dialect, database_name: s.database, ssl: false, trust_server_certificate: false, connect_timeout: 3, query_timeout: 10 }, silentLogger());
      try {
        const fields = [{ column_name: 'id', data_type: 'integer' as const }];
        await expect(driver.read({ statement: prepareStatement(query, dialect, fields), parameters: [{ name: 'id', type: 'integer', value: '0' }], maxRows: 10, pageRows: 10, onPage: () => undefined })).rejects.toMatchObject({ category: 'query_failed' });
      } finally {
        await driver.close();
      }
      expect(await db.tableExists(victim)).toBe(true);
    });

    it('marks a query that fails (no crash; the other stream keeps reading) and clears the marker once it works', async () => {
      const t = uniqueTable('good');
      const later = uniqueTable('later');
      await db.exec(`CREATE TABLE ${t} (id ${ddl.id}, v int)`);
      await db.insert(t, [{ v: 1 }, { v: 2 }]);
      const a = await startAgent((url) =>
        sqlConfiguration(dialect, url, [
          { stream_type: 'broken', query: `SELECT id, v FROM ${later} WHERE id > :id ORDER BY id`, state_fields: [{ column_name: 'id', data_type: 'integer' }] },
          { query: `SELECT id, v FROM ${t} WHERE id > :id ORDER BY id`, state_fields: [{ column_name: 'id', data_type: 'integer' }] },
        ]),
      );
      const marker = await a.waitForMarker('query_failed', 'broken');
      expect(marker).toMatchObject({ component: 'mes', level: 'error' });
      expect(marker.message).toMatch(new RegExp(later));
      await a.waitForRecords(2);
      expect((await a.server!.call('GET', '/v1/status')).json.response.agent.status).toBe('running');
      await db.exec(`CREATE TABLE ${later} (id ${ddl.id}, v int)`);
      await db.insert(later, [{ v: 7 }]);
      await a.waitForRecords(1, 'broken');
      await waitFor(async () => !(await a.markers()).some((m) => m.category === 'query_failed'), 15_000, 'the marker to clear');
    });

    it('marks a query with a syntax error, in the server\'s words, without stopping the agent', async () => {
      const t = uniqueTable('syntax');
      await db.exec(`CREATE TABLE ${t} (id ${ddl.id}, v int)`);
      const a = await startAgent((url) =>
        sqlConfiguration(dialect, url, [{ stream_type: 'typo', query: `SELECT id, v FORM ${t} WHERE id > :id ORDER BY id`, state_fields: [{ column_name: 'id', data_type: 'integer' }] }]),
      );
      const marker = await a.waitForMarker('query_failed', 'typo');
      expect(marker.level).toBe('error');
      expect(marker.message).toMatch(/syntax/i);
      expect((await a.server!.call('GET', '/v1/status')).json.response.agent.status).toBe('running');
    });

    it('marks a wrong password, an unknown database and an unreachable server, each in words', async () => {
      agent = await AgentUnderTest.create();
      const server = await agent.start();
      const s = SERVERS[dialect];
      const receiver = (name: string, connection: Record<string, unknown>, streamType: string) =>
        sqlConfiguration(dialect, agent!.ingest.url, [{ stream_type: streamType, query: 'SELECT id FROM nowhere WHERE id > :id ORDER BY id', state_fields: [{ column_name: 'id', data_type: 'integer' }] }], { name, connection }).data_receiver[0]!;
      const config = sqlConfiguration(dialect, agent.ingest.url, []);
      config.data_receiver = [
        receiver('wrong_password', { password: 'not-the-password' }, 'auth'),
        receiver('no_database', { database_name: 'no_such_db' }, 'db'),
        receiver('nobody_home', { port: 9 }, 'down'),
      ];
      const saved = await server.call('POST', '/v1/config', config);
      expect(saved.json.success, JSON.stringify(saved.json)).toBe(true);
      const auth = await agent.waitForMarker('auth_failed', 'auth');
      expect(auth.message).toMatch(new RegExp(`refused the login of user "${s.username}": wrong user name or password`));
      expect(auth.message).not.toContain('not-the-password');
      const database = await agent.waitForMarker('database_not_found', 'db');
      expect(database.message).toMatch(/The database "no_such_db" does not exist/);
      const down = await agent.waitForMarker('connect_failed', 'down');
      expect(down.message).toMatch(/127\.0\.0\.1:9.*connection refused.*Next attempt in \d+ s/);
      const services = (await server.call('GET', '/v1/status')).json.response.agent.services;
      expect(services['receiver:wrong_password']).toMatchObject({ status: 'unknown', health: 'degraded' });
      const lines: string[] = (await server.call('GET', '/v1/log/stream?lines=500')).json.response;
      expect(lines.join('\n')).not.toContain('not-the-password');
    });

    it('reads on without loss or duplicates when the database restarts', async () => {
      const t = uniqueTable('restart');
      await db.exec(`CREATE TABLE ${t} (id ${ddl.id}, v int)`);
      await db.insert(t, Array.from({ length: 10 }, (_, v) => ({ v })));
      const a = await startAgent((url) => sqlConfiguration(dialect, url, [{ query: `SELECT id, v FROM ${t} WHERE id > :id ORDER BY id`, state_fields: [{ column_name: 'id', data_type: 'integer' }] }]));
      await a.waitForRecords(10);
      await db.close();
      serverScript(dialect, '--stop');
      try {
        const marker = await a.waitForMarker('connect_failed', undefined, 20_000);
        expect(marker.message).toMatch(/Tributary keeps trying/);
        expect((await a.server!.call('GET', '/v1/status')).json.response.agent.services['receiver:mes']).toMatchObject({ status: 'unknown', health: 'degraded' });
      } finally {
        serverScript(dialect);
        db = await TestDatabase.open(dialect);
      }
      await db.insert(t, Array.from({ length: 10 }, (_, v) => ({ v: v + 10 })));
      await a.waitForRecords(20, 'orders', 45_000);
      await new Promise((r) => setTimeout(r, 1200));
      expect(fieldsOf(a.records()).map((r) => r.v as number).sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, v) => v));
      await waitFor(async () => !(await a.markers()).some((m) => m.category === 'connect_failed'), 15_000, 'the marker to clear');
      expect((await a.server!.call('GET', '/v1/status')).json.response.agent.services['receiver:mes']).toMatchObject({ status: 'running', health: 'ok' });
    }, 90_000);
  });
}
