/**
 * "The desktop app offers the same" (issue 34 point 3): the desktop window reaches its agent over
 * IPC, not HTTP. The Agents page and every managed page must work there too: adding an agent, the
 * fleet list, and a save through the proxy with If-Match, all over the IPC adapter.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeIpcRequest } from '../ipc-adapter.js';
import { type TestServer, startTestServer } from '../../testing/test-host.js';

let desktop: TestServer;
let hall: TestServer;

beforeAll(async () => {
  [desktop, hall] = await Promise.all([
    startTestServer(),
    startTestServer({ env: { TRIBUTARY_API_TOKEN: 'hall-token-0123456789' } }),
  ]);
}, 60_000);
afterAll(async () => {
  await Promise.all([desktop?.close(), hall?.close()]);
});

const ipc = (method: 'GET' | 'POST', path: string, body?: unknown, headers?: Record<string, string>) =>
  routeIpcRequest(desktop.host.router, { method, path, body, ...(headers ? { headers } : {}) });

describe('the fleet over the desktop app\'s IPC', () => {
  it('adds an agent, lists it after the desktop\'s own one, saves its configuration through the proxy', async () => {
    const url = `http://127.0.0.1:${hall.host.http!.port}`;
    const added = await ipc('POST', '/v1/fleet/agents', { name: 'hall-2', url, token: 'hall-token-0123456789' });
    expect(added.status, JSON.stringify(added.body)).toBe(200);

    const fleet = await ipc('GET', '/v1/fleet');
    const agents = (fleet.body.response as { agents: { name: string; self: boolean }[] }).agents;
    expect(agents.map((agent) => agent.self)).toEqual([true, false]);
    expect(agents[1]?.name).toBe('hall-2');

    const archive = { transmit_name: 'archive', transmit_type: 'csv' };
    const config = { data_receiver: [], transforms: [], data_transmit: [archive] };
    const read = await ipc('GET', '/v1/fleet/agents/hall-2/api/v1/config');
    const revision = (read.body.meta as { revision: number | null }).revision;
    const ifMatch = revision === null ? undefined : { 'if-match': `"${revision}"` };
    const saved = await ipc('POST', '/v1/fleet/agents/hall-2/api/v1/config', config, ifMatch);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    // On the hall's agent, not on the desktop's.
    expect((await hall.call('GET', '/v1/config')).json.response.data_transmit[0].transmit_name).toBe('archive');
    const own = (await desktop.call('GET', '/v1/config')).json.response.data_transmit ?? [];
    expect(own).not.toContainEqual(expect.objectContaining({ transmit_name: 'archive' }));

    // A stale revision is the hall's own conflict, over IPC as over HTTP.
    const stale = await ipc('POST', '/v1/fleet/agents/hall-2/api/v1/config', config, { 'if-match': '"0"' });
    expect(stale.status).toBe(409);
  });
});
