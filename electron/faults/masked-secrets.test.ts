/**
 * Fault suite: whoever holds the API token reads configurations with masked secrets; sending the
 * mask back with another server must never hand that server the saved secret.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type TestServer, startTestServer } from '../testing/test-host.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const configuration = () => ({
  data_receiver: [
    {
      data_receiver_name: 'mes',
      protocol: 'sql',
      poll_interval: 60,
      connections: [{ host: '127.0.0.1', port: 1, username: 'reader', password: 'the-real-db-password', database_type: 'postgresql', database_name: 'mes' }],
      streams: [{ asset: 'Line_1', stream_type: 'orders', query: 'SELECT * FROM orders WHERE id > :id ORDER BY id', state_fields: [{ column_name: 'id', data_type: 'integer', initial_value: 0 }] }],
    },
  ],
  transforms: [],
  data_transmit: [{ transmit_name: 'cloud', transmit_type: 'remotedatapost', base_url: 'https://127.0.0.1:1', API_key: 'the-real-api-key', API_key_ID: 'plant@example.com' }],
});

const saved = () => JSON.parse(fs.readFileSync(path.join(server!.dataDirectory, 'conf.d', 'tributary.json'), 'utf8'));

describe('masked secrets sent back for another target', () => {
  it('refuses a saved password for a changed host or port and a saved API key for another address, and keeps what was saved', async () => {
    server = await startTestServer();
    expect((await server.call('POST', '/v1/config', configuration())).status).toBe(200);
    const before = saved();

    for (const [label, change, jsonPath] of [
      ['host', (d: any) => (d.data_receiver[0].connections[0].host = 'attacker.example.com'), ['data_receiver', 0, 'connections', 0, 'password']],
      ['port', (d: any) => (d.data_receiver[0].connections[0].port = 15432), ['data_receiver', 0, 'connections', 0, 'password']],
      ['base_url', (d: any) => (d.data_transmit[0].base_url = 'https://attacker.example.com'), ['data_transmit', 0, 'API_key']],
    ] as const) {
      const masked = (await server.call('GET', '/v1/config')).json.response;
      expect(masked.data_receiver[0].connections[0].password).toBe('********');
      change(masked);
      const { status, json } = await server.call('POST', '/v1/config', masked);
      expect(status, label).toBe(422);
      expect(json.response.violations).toContainEqual(expect.objectContaining({ json_path: jsonPath, level: 'error', description: expect.stringMatching(/^Re-enter the (password: the server|API_key: the cloud account) changed/) }));
      // The same check answers /v1/config/validate, so the console shows it before saving.
      expect((await server.call('POST', '/v1/config/validate', masked)).json.response.status, label).toBe('failed');
      expect(saved(), label).toEqual(before);
    }

    // The operator types the password for the new server: accepted.
    const masked = (await server.call('GET', '/v1/config')).json.response;
    masked.data_receiver[0].connections[0].port = 15432;
    masked.data_receiver[0].connections[0].password = 'the-new-server-password';
    expect((await server.call('POST', '/v1/config', masked)).status).toBe(200);
    expect(saved().data_receiver[0].connections[0].password).toBe('the-new-server-password');
    expect(saved().data_transmit[0].API_key).toBe('the-real-api-key');
    expect((await server.call('GET', '/v1/status')).json.response.agent.status).toBe('running');
  });

  it('masks an mqtt transmit\'s password like API_key and never sends it to a changed host, port or username', async () => {
    server = await startTestServer();
    const mqtt = {
      data_receiver: [],
      transforms: [],
      // Port 1 on loopback: nothing answers, nothing is sent; the test is about the configuration.
      data_transmit: [{ transmit_name: 'uns', transmit_type: 'mqtt', filter_stream: ['*'], host: '127.0.0.1', port: 1, username: 'edge', password: 'the-real-broker-password', topic: 'plant1/{asset}/{stream_type}' }],
    };
    expect((await server.call('POST', '/v1/config', mqtt)).status).toBe(200);
    const before = saved();
    for (const [label, change] of [
      ['host', (d: any) => (d.data_transmit[0].host = 'attacker.example.com')],
      ['port', (d: any) => (d.data_transmit[0].port = 2)],
      ['username', (d: any) => (d.data_transmit[0].username = 'admin')],
    ] as const) {
      const masked = (await server.call('GET', '/v1/config')).json.response;
      expect(masked.data_transmit[0].password).toBe('********');
      change(masked);
      const { status, json } = await server.call('POST', '/v1/config', masked);
      expect(status, label).toBe(422);
      expect(json.response.violations).toContainEqual(expect.objectContaining({ json_path: ['data_transmit', 0, 'password'], level: 'error', description: expect.stringMatching(/^Re-enter the password: the broker changed/) }));
      expect(saved(), label).toEqual(before);
    }
    const unchanged = (await server.call('GET', '/v1/config')).json.response;
    unchanged.data_transmit[0].topic = 'plant2/{asset}';
    expect((await server.call('POST', '/v1/config', unchanged)).status).toBe(200);
    expect(saved().data_transmit[0].password).toBe('the-real-broker-password');
  });
});
