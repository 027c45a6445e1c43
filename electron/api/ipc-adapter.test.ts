import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeIpcRequest } from './ipc-adapter.js';
import { type TestServer, startTestServer } from '../testing/test-host.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

describe('IPC adapter', () => {
  it('routes a console request to the same router as HTTP', async () => {
    const viaIpc = await routeIpcRequest(server.host.router, { method: 'GET', path: '/v1/config/templates/sql' });
    const viaHttp = await server.call('GET', '/v1/config/templates/sql');
    expect(viaIpc.status).toBe(200);
    expect(viaIpc.body).toEqual(viaHttp.json);
  });

  it('passes query strings and bodies', async () => {
    const lines = await routeIpcRequest(server.host.router, { method: 'GET', path: '/v1/log/stream?lines=2' });
    expect(lines.body.response).toHaveLength(2);
    const validation = await routeIpcRequest(server.host.router, { method: 'POST', path: '/v1/config/validate', body: { data_transmit: 'x' } });
    expect(validation.body.success).toBe(false);
  });

  it('refuses anything outside /v1 or malformed', async () => {
    for (const request of [null, 'GET /v1/status', { method: 'GET', path: '/etc/passwd' }, { method: 'GET', path: '/v1/../api-token' }, { method: 'PATCH', path: '/v1/config' }, { method: 'GET' }]) {
      const response = await routeIpcRequest(server.host.router, request);
      expect(response.status, JSON.stringify(request)).toBe(400);
      expect(response.body.success).toBe(false);
    }
  });
});
