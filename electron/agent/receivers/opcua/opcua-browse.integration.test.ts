import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, startTestServer, tempDirectory } from '../../../testing/test-host.js';
import { OpcuaTestServer } from '../../../testing/opcua/opcua-test-server.js';

let plc: OpcuaTestServer;
let server: TestServer;

beforeAll(async () => {
  plc = await OpcuaTestServer.start({ pkiFolder: tempDirectory('opcua-browse-pki-') });
  server = await startTestServer({ stopTimeoutMs: 10_000 });
  const config = {
    data_receiver: [
      {
        data_receiver_name: 'plc',
        protocol: 'opcua',
        connections: [{ host: '127.0.0.1', port: plc.port, timeout: 5 }],
        streams: [{ asset: 'Line_1', stream_type: 'process', opcua_tags: [{ name: 'ns=2;s=Double', exportname: 'temperature' }] }],
      },
      {
        data_receiver_name: 'secure_plc',
        protocol: 'opcua',
        connections: [{ host: '127.0.0.1', port: plc.port, timeout: 5, security_mode: 'SignAndEncrypt' }],
        streams: [{ asset: 'Line_2', stream_type: 'process', opcua_tags: [{ name: 'ns=2;s=Double', exportname: 'temperature' }] }],
      },
    ],
    transforms: [],
    data_transmit: [{ transmit_name: 'archive', transmit_type: 'csv', filter_stream: ['*'] }],
  };
  const saved = await server.call('POST', '/v1/config', config);
  expect(saved.json.success, JSON.stringify(saved.json)).toBe(true);
}, 60_000);
afterAll(async () => {
  await server?.close();
  await plc?.stop();
});

const browse = (query: string) => server.call('GET', `/v1/opcua/browse?${query}`);

describe('GET /v1/opcua/browse', () => {
  it('lists the Objects folder by default', async () => {
    const { status, json } = await browse('receiver=plc');
    expect(status).toBe(200);
    expect(json.success).toBe(true);
    const plant = json.response.find((n: { browse_name: string }) => n.browse_name === 'Plant');
    expect(plant).toEqual({ node_id: 'ns=2;s=Plant', browse_name: 'Plant', display_name: 'Plant', node_class: 'Object', data_type: null });
    expect(json.response.some((n: { node_id: string }) => n.node_id === 'i=2253')).toBe(true); // the Server object
  });

  it('lists the tags of a node with class and data type', async () => {
    const { json } = await browse(`receiver=plc&node=${encodeURIComponent('ns=2;s=Plant')}`);
    const byName = Object.fromEntries(json.response.map((n: { browse_name: string }) => [n.browse_name, n]));
    expect(byName.Double).toEqual({ node_id: 'ns=2;s=Double', browse_name: 'Double', display_name: 'Double', node_class: 'Variable', data_type: 'Double' });
    expect(byName.Bool.data_type).toBe('Boolean');
    expect(byName.DateTime.data_type).toBe('DateTime');
    expect(byName.Zones.data_type).toBe('Double');
  });

  it('answers with an error for an unknown receiver, a missing receiver, a bad or unknown node', async () => {
    expect((await browse('receiver=nope')).status).toBe(404);
    const missing = await browse('');
    expect(missing.status).toBe(400);
    expect(missing.json.success).toBe(false);
    expect((await browse('receiver=plc&node=%3D%3Dnot-a-node')).status).toBe(400);
    const unknown = await browse(`receiver=plc&node=${encodeURIComponent('ns=2;s=Nowhere')}`);
    expect(unknown.status).toBe(404);
    expect(unknown.json.error.text).toContain('BadNodeIdUnknown');
  });

  it('needs the same trust as reading: an untrusted server is refused with its thumbprint', async () => {
    const { status, json } = await browse('receiver=secure_plc');
    expect(status).toBe(503);
    expect(json.success).toBe(false);
    expect(json.error.text).toMatch(/not trusted yet \(thumbprint [0-9a-f]{40}\)/);
  });
});
