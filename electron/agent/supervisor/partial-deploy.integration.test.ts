/**
 * A save keeps the connections and sessions of receivers whose configuration did not change, against
 * real servers: a node-opcua server (its sessions counted on the server side) and the PostgreSQL of
 * scripts/ci/start-postgres.sh (the backend process of the receiver's connection). And what did
 * change (a new transform, a transmit's filter) applies to the records of those kept receivers.
 */
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { csvOutboxRows, waitFor } from '../../testing/file-plant.js';
import { OpcuaTestServer } from '../../testing/opcua/opcua-test-server.js';
import { SERVERS, TestDatabase, uniqueTable } from '../../testing/sql/sql-test-support.js';
import { type TestServer, startTestServer, tempDirectory } from '../../testing/test-host.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function save(config: unknown) {
  const reply = await server!.call('POST', '/v1/config', config);
  expect(reply.json.success, JSON.stringify(reply.json)).toBe(true);
  return reply.json.meta.changes;
}

const csv = (name: string, directory: string, filter: string[]) => ({ transmit_name: name, transmit_type: 'csv', filter_stream: filter, directory, poll_interval: 1 });

describe('OPC UA: a save that changes other components keeps the session', () => {
  let plc: OpcuaTestServer;
  beforeAll(async () => {
    plc = await OpcuaTestServer.start({ pkiFolder: tempDirectory('opcua-deploy-pki-') });
  }, 60_000);
  afterAll(async () => {
    await plc?.stop();
  });

  it('keeps the receiver’s session while a new transform and a widened transmit filter apply to its records', async () => {
    const dataDirectory = tempDirectory('tributary-deploy-');
    const archive = path.join(dataDirectory, 'archive');
    const quality = path.join(dataDirectory, 'quality');
    server = await startTestServer({ dataDirectory, stopTimeoutMs: 10_000 });
    const receiver = (samplingMs: number) => ({
      data_receiver_name: 'plc',
      protocol: 'opcua',
      read_mode: 'subscription',
      sampling_interval_ms: samplingMs,
      connections: [{ host: '127.0.0.1', port: plc.port, timeout: 5 }],
      streams: [{ asset: 'Line_1', stream_type: 'process', opcua_tags: [{ name: 'ns=2;s=Double', exportname: 'double' }] }],
    });
    const rename = { transform_name: 'units', transform_type: 'rename', filter_stream: ['Line_1:process'], renames: { double: 'temperature_c' } };
    const first = { data_receiver: [receiver(100)], transforms: [], data_transmit: [csv('archive', archive, ['*']), csv('quality', quality, ['Other:*'])] };
    await save(first);
    plc.set('Double', 11.5);
    await waitFor(() => csvOutboxRows(archive, 'Line_1', 'process').some((row) => row.double === '11.5'), 20_000, 'the first value in the archive');
    const sessions = plc.sessionsCreated;
    expect(sessions).toBe(1);

    const second = { ...first, transforms: [rename], data_transmit: [csv('archive', archive, ['*']), csv('quality', quality, ['Line_1:*'])] };
    expect(await save(second)).toEqual({ start: ['transform:units'], restart: ['transmit:quality'], stop: [], keep: ['transmit:archive', 'receiver:plc'] });
    plc.set('Double', 77.5);
    await waitFor(() => csvOutboxRows(archive, 'Line_1', 'process').some((row) => row.temperature_c === '77.5'), 20_000, 'the renamed value in the archive');
    await waitFor(() => csvOutboxRows(quality, 'Line_1', 'process').some((row) => row.temperature_c === '77.5'), 20_000, 'the value in the newly selected transmit');
    expect(plc.sessionsCreated).toBe(sessions);
    expect(plc.sessionsClosed).toBe(0);
    expect(csvOutboxRows(archive, 'Line_1', 'process').filter((row) => row.double === '77.5')).toEqual([]);

    // The other way round, a change of the receiver itself does start a new session.
    expect(await save({ ...second, data_receiver: [receiver(200)] })).toEqual({ start: [], restart: ['receiver:plc'], stop: [], keep: ['transmit:archive', 'transmit:quality', 'transform:units'] });
    await waitFor(() => plc.sessionsCreated === sessions + 1, 20_000, 'a new session of the restarted receiver');
  }, 90_000);
});

describe('PostgreSQL: a save that changes other components keeps the connection', () => {
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
