import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { csvOutboxRows, waitFor } from '../../../testing/file-plant.js';
import { describeSqlReceiver } from '../../../testing/sql/sql-receiver-suite.js';
import { AgentUnderTest, SERVERS, TestDatabase, sqlConfiguration, uniqueTable } from '../../../testing/sql/sql-test-support.js';
import { type TestServer, startTestServer, tempDirectory } from '../../../testing/test-host.js';

describeSqlReceiver('postgresql');

describe('SQL receiver on PostgreSQL: TLS and zones', () => {
  let agent: AgentUnderTest | undefined;
  afterEach(async () => {
    await agent?.close();
    agent = undefined;
  });

  it('refuses a self-signed server certificate with a tls_failed marker, and reads with trust_server_certificate', async () => {
    const db = await TestDatabase.open('postgresql');
    const t = uniqueTable('tls');
    try {
      await db.exec(`CREATE TABLE ${t} (id bigserial PRIMARY KEY, at timestamptz NOT NULL)`);
      await db.exec(`INSERT INTO ${t} (at) VALUES ('2026-07-01 08:00:00.250000+02')`);
    } finally {
      await db.close();
    }
    agent = await AgentUnderTest.create();
    const stream = { query: `SELECT id, at FROM ${t} WHERE id > :id ORDER BY id`, state_fields: [{ column_name: 'id', data_type: 'integer' }], timestamp_column: 'at' };
    await agent.start(sqlConfiguration('postgresql', agent.ingest.url, [stream], { connection: { ssl: true } }));
    const marker = await agent.waitForMarker('tls_failed');
    expect(marker.message).toMatch(/TLS to PostgreSQL at 127\.0\.0\.1:55432.*self-signed.*trust_server_certificate: true/);
    const saved = await agent.server!.call('POST', '/v1/config', sqlConfiguration('postgresql', agent.ingest.url, [stream], { connection: { ssl: true, trust_server_certificate: true, timezone: 'America/Chicago' } }));
    expect(saved.json.success).toBe(true);
    const [record] = await agent.waitForRecords(1);
    // timestamptz carries its zone: the connection's timezone does not apply to it.
    expect(record!.fieldvalues.at).toBe('2026-07-01T06:00:00.250000Z');
    expect(record!.timestamp.toISOString()).toBe('2026-07-01T06:00:00.250Z');
  });
});

// Here, not with the other partial-deploy tests: this file's suite restarts PostgreSQL, and tests of
// one file never run at the same time.
describe('PostgreSQL: a save that changes other components keeps the connection', () => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  const save = async (config: unknown) => {
    const reply = await server!.call('POST', '/v1/config', config);
    expect(reply.json.success, JSON.stringify(reply.json)).toBe(true);
    return reply.json.meta.changes;
  };
  const csv = (name: string, directory: string, filter: string[]) => ({ transmit_name: name, transmit_type: 'csv', filter_stream: filter, directory, poll_interval: 1 });

  it('keeps the receiver’s connection (same backend) while a new transmit and transform apply to its rows', async () => {
    const db = await TestDatabase.open('postgresql');
    const table = uniqueTable('deploy');
    try {
      await db.exec(`CREATE TABLE ${table} (id bigserial PRIMARY KEY, amount double precision NOT NULL)`);
      await db.exec(`INSERT INTO ${table} (amount) VALUES (1.5), (2.5)`);
      const dataDirectory = tempDirectory('tributary-deploy-');
      const archive = path.join(dataDirectory, 'archive');
      const ledger = path.join(dataDirectory, 'ledger');
      server = await startTestServer({ dataDirectory });
      const s = SERVERS.postgresql;
      // Each row says which server process (and since when) served the connection that read it.
      const query = `SELECT id, amount, pg_backend_pid() AS backend, (SELECT backend_start FROM pg_stat_activity WHERE pid = pg_backend_pid()) AS connected FROM ${table} WHERE id > :id ORDER BY id`;
      const receiver = (pollInterval: number) => ({
        data_receiver_name: 'erp',
        protocol: 'sql',
        poll_interval: pollInterval,
        connections: [{ host: '127.0.0.1', port: s.port, username: s.username, password: s.password, database_type: 'postgresql', database_name: s.database, ssl: false }],
        streams: [{ asset: 'Line_1', stream_type: 'orders', query, state_fields: [{ column_name: 'id', data_type: 'integer' }] }],
      });
      const connectionOf = (row: Record<string, string> | undefined) => row && `${row.backend} since ${row.connected}`;
      const rowWithId = (directory: string, id: string) => csvOutboxRows(directory, 'Line_1', 'orders').find((row) => row.id === id);

      const first = { data_receiver: [receiver(1)], transforms: [], data_transmit: [csv('archive', archive, ['*'])] };
      await save(first);
      await waitFor(() => csvOutboxRows(archive, 'Line_1', 'orders').length === 2, 20_000, 'the first rows in the archive');
      const before = connectionOf(rowWithId(archive, '2'));
      expect(before).toMatch(/^\d+ since \d{4}-/);

      const rename = { transform_name: 'currency', transform_type: 'rename', filter_stream: ['*'], renames: { amount: 'amount_eur' } };
      const second = { ...first, transforms: [rename], data_transmit: [csv('archive', archive, ['*']), csv('ledger', ledger, ['Line_1:orders'])] };
      expect(await save(second)).toEqual({ start: ['transmit:ledger', 'transform:currency'], restart: [], stop: [], keep: ['transmit:archive', 'receiver:erp'] });
      await db.exec(`INSERT INTO ${table} (amount) VALUES (3.5)`);
      await waitFor(() => rowWithId(archive, '3')?.amount_eur === '3.5', 20_000, 'the renamed row in the archive');
      await waitFor(() => rowWithId(ledger, '3')?.amount_eur === '3.5', 20_000, 'the row in the new transmit');
      expect(connectionOf(rowWithId(archive, '3'))).toBe(before);
      // Kept means kept: the rows read before the save were not read again.
      expect(csvOutboxRows(archive, 'Line_1', 'orders').map((row) => row.id)).toEqual(['1', '2', '3']);

      // The other way round, a change of the receiver itself reads over a new connection.
      expect((await save({ ...second, data_receiver: [receiver(2)] })).restart).toEqual(['receiver:erp']);
      await db.exec(`INSERT INTO ${table} (amount) VALUES (4.5)`);
      const after = await waitFor(() => connectionOf(rowWithId(archive, '4')), 20_000, 'the row read after the receiver restarted');
      expect(after).not.toBe(before);
    } finally {
      await db.exec(`DROP TABLE IF EXISTS ${table}`).catch(() => undefined);
      await db.close();
    }
  }, 90_000);
});
