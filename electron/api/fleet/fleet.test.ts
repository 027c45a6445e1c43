/**
 * The fleet API in one process: a desk's agent and two agents it manages (one over HTTPS), each a
 * real server on loopback. Real processes, a killed agent and a changed certificate are in
 * fleet.integration.test.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, startTestServer } from '../../testing/test-host.js';

let desk: TestServer;
let plain: TestServer;
let secure: TestServer;
let secureUrl: string;
let viewer: string;

beforeAll(async () => {
  [desk, plain, secure] = await Promise.all([
    startTestServer(),
    startTestServer({ env: { TRIBUTARY_API_TOKEN: 'plain-token-0123456789' } }),
    startTestServer({ env: { TRIBUTARY_API_TOKEN: 'secure-token-0123456789' }, http: { host: '127.0.0.1', port: 0, tls: {} } }),
  ]);
  secureUrl = `https://127.0.0.1:${secure.host.http!.port}`;
  viewer = (await desk.call('POST', '/v1/tokens', { name: 'fleet-viewer', role: 'viewer' })).json.response.token;
}, 60_000);
afterAll(async () => {
  await Promise.all([desk?.close(), plain?.close(), secure?.close()]);
});

describe('POST /v1/fleet/agents', () => {
  it('pins the certificate seen on first contact over https and answers it, never the token', async () => {
    const added = await desk.call('POST', '/v1/fleet/agents', { name: 'line-2', url: secureUrl, token: 'secure-token-0123456789' });
    expect(added.status, JSON.stringify(added.json)).toBe(200);
    expect(added.json.response.fingerprint).toBe(secure.host.tls!.fingerprint256);
    expect(added.json.response).toMatchObject({ name: 'line-2', reachable: true, state: 'running', self: false });
    expect(JSON.stringify(added.json)).not.toContain('secure-token');
  });

  it('adds an http agent, refuses a wrong token, a wrong fingerprint and a taken name', async () => {
    expect((await desk.call('POST', '/v1/fleet/agents', { name: 'line-1', url: plain.url, token: 'plain-token-0123456789' })).status).toBe(200);
    const wrongToken = await desk.call('POST', '/v1/fleet/agents', { name: 'line-x', url: plain.url, token: 'not-the-token-0123456789' });
    expect(wrongToken.status).toBe(422);
    expect(wrongToken.json.error.text).toContain('refused the token');
    const wrongPin = await desk.call('POST', '/v1/fleet/agents', { name: 'line-y', url: secureUrl, token: 'secure-token-0123456789', fingerprint: 'AB'.repeat(32) });
    expect(wrongPin.status).toBe(422);
    expect(wrongPin.json.error.text).toContain(secure.host.tls!.fingerprint256);
    expect((await desk.call('POST', '/v1/fleet/agents', { name: 'LINE-1', url: plain.url, token: 'plain-token-0123456789' })).status).toBe(409);
    const bad = await desk.call('POST', '/v1/fleet/agents', { name: 'line-z', url: 'ftp://x', token: 't' });
    expect(bad.status).toBe(400);
    expect(bad.json.error.text).toContain('url');
  });

  it('persists the list in the data directory (0600), without answering tokens in GET /v1/fleet', async () => {
    const file = path.join(desk.dataDirectory, 'fleet.json');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const stored = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(stored.agents.map((a: { name: string }) => a.name)).toEqual(['line-2', 'line-1']);
    const { json } = await desk.call('GET', '/v1/fleet');
    expect(JSON.stringify(json)).not.toContain('token-0123456789');
  });
});

describe('GET /v1/fleet', () => {
  it('lists this agent first, then each added one, with the fields of the issue', async () => {
    const { json } = await desk.call('GET', '/v1/fleet');
    const agents = json.response.agents;
    expect(agents.map((a: { name: string; self: boolean }) => a.self)).toEqual([true, false, false]);
    expect(agents.slice(1).map((a: { name: string }) => a.name)).toEqual(['line-2', 'line-1']);
    for (const agent of agents)
      for (const field of ['name', 'url', 'reachable', 'state', 'health', 'last_seen', 'version', 'revision', 'streams', 'backlog_records', 'error']) expect(agent).toHaveProperty(field);
    expect(agents[0]).toMatchObject({ url: desk.url, reachable: true, state: 'running', version: expect.stringMatching(/^\d+\.\d+/) });
    expect(agents[2]).toMatchObject({ reachable: true, health: 'ok', streams: { total: 0, flowing: 0, stale: 0 }, backlog_records: 0, error: null });
  });
});

describe('/v1/fleet/agents/{name}/api/<path>', () => {
  it('forwards with the stored token and answers what the agent answered (its revision, not ours)', async () => {
    const config = { data_receiver: [], transforms: [], data_transmit: [] };
    await plain.call('POST', '/v1/config', config);
    await plain.call('POST', '/v1/config', config);
    const read = await desk.call('GET', '/v1/fleet/agents/line-1/api/v1/config');
    expect(read.status).toBe(200);
    expect(read.json.meta.revision).toBe(2);
    expect(read.headers.get('etag')).toBe('"2"');
    const log = await desk.call('GET', '/v1/fleet/agents/line-2/api/v1/log/stream/agent_web.log?lines=5');
    expect(log.json.response.length).toBeLessThanOrEqual(5);
    // If-Match goes on: a stale save is refused by the agent itself.
    const stale = await desk.call('POST', '/v1/fleet/agents/line-1/api/v1/config', config, { 'If-Match': '"1"' });
    expect(stale.status).toBe(409);
    const saved = await desk.call('POST', '/v1/fleet/agents/line-1/api/v1/config', config, { 'If-Match': '"2"' });
    expect(saved.json.meta.revision).toBe(3);
    expect((await plain.call('GET', '/v1/config')).json.meta.saved_by).toBe('bootstrap');
  });

  it('applies this agent\'s role rules first: a viewer reads through the proxy but cannot save', async () => {
    const as = { authorization: `Bearer ${viewer}` };
    expect((await desk.call('GET', '/v1/fleet/agents/line-1/api/v1/status', undefined, as)).status).toBe(200);
    const before = (await plain.call('GET', '/v1/config')).json.meta.revision;
    const refused = await desk.call('POST', '/v1/fleet/agents/line-1/api/v1/config', { data_receiver: [], transforms: [], data_transmit: [] }, as);
    expect(refused.status).toBe(403);
    expect(refused.json.error.text).toContain('admin');
    expect((await plain.call('GET', '/v1/config')).json.meta.revision).toBe(before);
    expect((await desk.call('POST', '/v1/fleet/agents', { name: 'v', url: plain.url, token: 'plain-token-0123456789' }, as)).status).toBe(403);
  });

  it('names what is wrong: an unknown agent, an unknown endpoint', async () => {
    expect((await desk.call('GET', '/v1/fleet/agents/nobody/api/v1/status')).status).toBe(404);
    const unknown = await desk.call('GET', '/v1/fleet/agents/line-1/api/v1/nothing');
    expect(unknown.status).toBe(404);
    expect(unknown.json.error.text).toContain('line-1');
  });
});

describe('re-pinning and removing', () => {
  it('re-pins only to the certificate the agent presents', async () => {
    const wrong = await desk.call('POST', '/v1/fleet/agents/line-2/pin', { fingerprint: 'CD'.repeat(32) });
    expect(wrong.status).toBe(422);
    const same = await desk.call('POST', '/v1/fleet/agents/line-2/pin', { fingerprint: secure.host.tls!.fingerprint256.toLowerCase() });
    expect(same.status).toBe(200);
    expect(same.json.response.fingerprint).toBe(secure.host.tls!.fingerprint256);
    expect((await desk.call('POST', '/v1/fleet/agents/line-1/pin', { fingerprint: 'CD'.repeat(32) })).status).toBe(400);
  });

  it('removes an agent: gone from the list, the file and the proxy', async () => {
    expect((await desk.call('DELETE', '/v1/fleet/agents/line-1')).status).toBe(200);
    expect((await desk.call('DELETE', '/v1/fleet/agents/line-1')).status).toBe(404);
    expect((await desk.call('GET', '/v1/fleet')).json.response.agents.map((a: { name: string }) => a.name)).not.toContain('line-1');
    expect(fs.readFileSync(path.join(desk.dataDirectory, 'fleet.json'), 'utf8')).not.toContain('line-1');
    expect((await desk.call('GET', '/v1/fleet/agents/line-1/api/v1/status')).status).toBe(404);
  });
});

describe('remote tokens in the logs', () => {
  it('never writes a remote token to a log: added, refused, proxied or failed requests carrying one', async () => {
    // A token pasted into a query (a mistake an operator makes) reaches the request log: it is redacted.
    const proxied = await desk.call('GET', '/v1/fleet/agents/line-2/api/v1/status?note=secure-token-0123456789');
    expect(proxied.status).toBe(200);
    // line-1 was removed: its token stays redacted, as does the refused one typed when adding.
    expect((await desk.call('GET', '/v1/fleet/agents/line-1/api/v1/status?note=plain-token-0123456789')).status).toBe(404);
    expect((await desk.call('GET', '/v1/fleet/agents/line-2/api/v1/nothing?note=not-the-token-0123456789')).status).toBe(404);
    const logs = path.join(desk.dataDirectory, 'logs');
    const text = () => fs.readdirSync(logs).map((file) => fs.readFileSync(path.join(logs, file), 'utf8')).join('\n');
    await expect.poll(() => text(), { timeout: 10_000 }).toMatch(/api\/v1\/nothing\?note=\*{8}/);
    expect(text()).toMatch(/line-2\/api\/v1\/status\?note=\*{8}/);
    expect(text()).toMatch(/line-1\/api\/v1\/status\?note=\*{8}/);
    expect(text()).not.toContain('token-0123456789');
  });
});
