/**
 * POST /v1/config/preview for SQL receivers against the loopback PostgreSQL and MariaDB test
 * servers: the query's first rows with the state it would bind, nothing committed.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { AgentUnderTest, DDL, TestDatabase, type TestDialect, sqlConfiguration, uniqueTable } from '../../../testing/sql/sql-test-support.js';

describe.each(['postgresql', 'mysql'] as TestDialect[])('preview of an SQL receiver on %s', (dialect) => {
  let agent: AgentUnderTest | undefined;
  afterEach(async () => {
    await agent?.close();
    agent = undefined;
  });

  async function table(rows: number): Promise<string> {
    const db = await TestDatabase.open(dialect);
    const t = uniqueTable('preview');
    try {
      await db.exec(`CREATE TABLE ${t} (id ${DDL[dialect].id}, at ${DDL[dialect].datetime} NOT NULL, part varchar(20) NOT NULL, force_kn double precision)`);
      await db.insert(t, Array.from({ length: rows }, (_, i) => ({ at: `2026-01-05 06:00:${String(i).padStart(2, '0')}`, part: `P${i}`, force_kn: 800 + i })));
    } finally {
      await db.close();
    }
    return t;
  }

  it('shows the first rows with the initial state, then with the state the receiver committed; nothing is read by the preview', async () => {
    const t = await table(12);
    agent = await AgentUnderTest.create();
    const server = await agent.start();
    const stream = { query: `SELECT id, at, part, force_kn FROM ${t} WHERE id > :id ORDER BY id`, state_fields: [{ column_name: 'id', data_type: 'integer' }], timestamp_column: 'at' };
    const config = sqlConfiguration(dialect, agent.ingest.url, [stream], { connection: { timezone: 'Europe/Berlin' } });
    const first = await server.call('POST', '/v1/config/preview', { configuration: config, rows: 4 });
    expect(first.status).toBe(200);
    const [preview] = first.json.response.streams;
    expect(first.json.response.protocol).toBe('sql');
    expect(preview.source).toContain(':id = 0');
    expect(preview.columns).toEqual(['id', 'at', 'part', 'force_kn']);
    expect(preview.records).toHaveLength(4);
    // Local wall time in Europe/Berlin (UTC+1 in January) becomes UTC.
    expect(preview.records[0]).toEqual({ timestamp: '2026-01-05T05:00:00.000000Z', fieldvalues: { id: 1, at: '2026-01-05T05:00:00.000000Z', part: 'P0', force_kn: 800 } });
    expect(preview.problems).toEqual([]);
    // The preview read nothing for real: the ingest server got nothing, and the save reads all 12.
    expect(agent.records()).toHaveLength(0);
    expect((await server.call('POST', '/v1/config', config)).json.success).toBe(true);
    await agent.waitForRecords(12);
    await agent.waitForEmptyOutbox();
    // Now the saved receiver's state is id 12: the preview binds it and finds nothing new.
    const after = (await server.call('POST', '/v1/config/preview', { configuration: config })).json.response.streams[0];
    expect(after.source).toContain(':id = 12');
    expect(after.records).toEqual([]);
    expect(after.problems).toEqual([expect.objectContaining({ level: 'warning', message: 'The query returns no rows with :id = 12: nothing new to read now.' })]);
  });

  it('says what is wrong with a query and with a connection', async () => {
    const t = await table(1);
    agent = await AgentUnderTest.create();
    const server = await agent.start();
    const missingState = sqlConfiguration(dialect, agent.ingest.url, [{ query: `SELECT part FROM ${t} WHERE id > :id ORDER BY id`, state_fields: [{ column_name: 'id', data_type: 'integer' }] }]);
    const [noColumn] = (await server.call('POST', '/v1/config/preview', { configuration: missingState })).json.response.streams;
    expect(noColumn.problems[0].message).toContain('has no column id (state_fields)');

    const refused = sqlConfiguration(dialect, agent.ingest.url, [{ query: `SELECT * FROM ${t}` }], { connection: { password: 'not-the-password' } });
    const [login] = (await server.call('POST', '/v1/config/preview', { configuration: refused })).json.response.streams;
    expect(login.records).toEqual([]);
    expect(login.problems).toEqual([expect.objectContaining({ level: 'error', message: expect.stringMatching(/tributary|password|login|denied|authentication/i) })]);
  });
});
