/**
 * Fault suite: a preview leaves nothing behind in the data directory. Each preview of a new OPC UA
 * receiver name left a certificate folder under components/receiver/ (decision 0033). Integration
 * test: creating the throwaway application certificate takes seconds.
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

describe('a preview leaves no folder behind', () => {
  it('previews a new OPC UA receiver with a throwaway certificate: nothing new under components/, the agent answers on', async () => {
    server = await startTestServer();
    const components = path.join(server.dataDirectory, 'components');
    const before = fs.existsSync(components) ? fs.readdirSync(components, { recursive: true }) : [];
    const opcua = {
      data_receiver: [{ data_receiver_name: 'new-line', protocol: 'opcua', connections: [{ host: '127.0.0.1', port: 1, timeout: 1 }], streams: [{ asset: 'Press_1', stream_type: 'cycle', opcua_tags: [{ name: 'ns=1;s=Speed', exportname: 'speed' }] }] }],
      transforms: [],
      data_transmit: [],
    };
    for (let i = 0; i < 2; i += 1) {
      const { status, json } = await server.call('POST', '/v1/config/preview', { configuration: opcua });
      expect(status, JSON.stringify(json)).toBe(200);
      // Nothing listens on port 1: the preview says so for the stream.
      expect(json.response.streams[0].problems[0].level).toBe('error');
    }
    expect(fs.existsSync(components) ? fs.readdirSync(components, { recursive: true }) : []).toEqual(before);
    expect((await server.call('GET', '/v1/status')).status).toBe(200);
  });
});
