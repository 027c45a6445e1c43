/**
 * A save keeps the connections and sessions of receivers whose configuration did not change, against
 * real servers: here a node-opcua server (its sessions counted on the server side); the PostgreSQL
 * case is in receivers/sql/sql-postgres.integration.test.ts (next to the tests that restart that
 * server, so that they never run at the same time). And what did change (a new transform, a
 * transmit's filter) applies to the records of those kept receivers.
 */
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { csvOutboxRows, waitFor } from '../../testing/file-plant.js';
import { OpcuaTestServer } from '../../testing/opcua/opcua-test-server.js';
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
