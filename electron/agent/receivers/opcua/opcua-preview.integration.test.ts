/**
 * POST /v1/config/preview for an OPC UA receiver against a node-opcua test server: one record per
 * stream with the tags' current values and statuses, from an unsaved configuration.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, startTestServer, tempDirectory } from '../../../testing/test-host.js';
import { OpcuaTestServer } from '../../../testing/opcua/opcua-test-server.js';

let plc: OpcuaTestServer;
let server: TestServer;

beforeAll(async () => {
  plc = await OpcuaTestServer.start({ pkiFolder: tempDirectory('opcua-preview-pki-') });
  server = await startTestServer({ stopTimeoutMs: 10_000 });
}, 60_000);
afterAll(async () => {
  await server?.close();
  await plc?.stop();
});

const configuration = (port: number, tags: { name: string; exportname: string }[]) => ({
  data_receiver: [{ data_receiver_name: 'plc', protocol: 'opcua', connections: [{ host: '127.0.0.1', port, timeout: 5 }], streams: [{ asset: 'Line_1', stream_type: 'process', opcua_tags: tags }] }],
  transforms: [],
  data_transmit: [{ transmit_name: 'archive', transmit_type: 'csv', filter_stream: ['*'] }],
});

describe('preview of an OPC UA receiver', () => {
  it('reads the current value of every tag into one record, time stamped by the newest source time', async () => {
    const at = new Date('2026-01-05T06:00:00.500Z');
    plc.set('Double', 21.75, { sourceTimestamp: at });
    plc.set('String', 'Running', { sourceTimestamp: new Date('2026-01-05T05:59:00Z') });
    plc.set('Zones', [180.5, 181, 182.5], { sourceTimestamp: new Date('2026-01-05T05:58:00Z') });
    const config = configuration(plc.port, [
      { name: 'ns=2;s=Double', exportname: 'temperature' },
      { name: 'ns=2;s=String', exportname: 'state' },
      { name: 'ns=2;s=Zones', exportname: 'zone' },
    ]);
    const { status, json } = await server.call('POST', '/v1/config/preview', { configuration: config });
    expect(status).toBe(200);
    const [line] = json.response.streams;
    expect(json.response.protocol).toBe('opcua');
    expect(line.source).toBe(plc.url);
    expect(line.records).toEqual([
      {
        timestamp: '2026-01-05T06:00:00.500000Z',
        fieldvalues: { temperature: 21.75, temperature_status: 'Good', state: 'Running', state_status: 'Good', zone_0: 180.5, zone_1: 181, zone_2: 182.5, zone_status: 'Good' },
      },
    ]);
    expect(line.problems).toEqual([]);
  });

  it('names a tag the server does not know, and a server that does not answer', async () => {
    const unknown = (await server.call('POST', '/v1/config/preview', { configuration: configuration(plc.port, [{ name: 'ns=2;s=Nowhere', exportname: 'x' }]) })).json.response.streams[0];
    expect(unknown.problems).toEqual([expect.objectContaining({ level: 'error', message: 'ns=2;s=Nowhere (x) is BadNodeIdUnknown.' })]);

    const closedPort = (await server.call('POST', '/v1/config/preview', { configuration: configuration(1, [{ name: 'ns=2;s=Double', exportname: 't' }]) })).json.response.streams[0];
    expect(closedPort.records).toEqual([]);
    expect(closedPort.problems[0]).toMatchObject({ level: 'error', message: expect.stringContaining('opc.tcp://127.0.0.1:1') });
  });
});
