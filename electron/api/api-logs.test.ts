import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { specExampleConfiguration } from '../../shared/testing/config-fixtures.js';
import { type TestServer, startTestServer } from '../testing/test-host.js';

const LINE = /^(\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}) \| ([^|]+) \| ([^|]+) \| (DEBUG|INFO|WARNING|ERROR) \| (.*)$/;
let server: TestServer;

beforeEach(async () => {
  server = await startTestServer();
});
afterEach(async () => {
  await server.close();
});

describe('GET /v1/log/stream (9, 10)', () => {
  it('returns core log lines in the decided format', async () => {
    const { json } = await server.call('GET', '/v1/log/stream');
    expect(json.success).toBe(true);
    expect(json.response.length).toBeGreaterThan(0);
    for (const line of json.response) expect(line).toMatch(LINE);
    expect(json.response.join('\n')).toMatch(/Tributary agent starting/);
  });

  it('returns the same core log by name, and the web log with every request: method, path, status, ms', async () => {
    const core = await server.call('GET', '/v1/log/stream/agent_core.log');
    expect(core.json.response[0]).toMatch(/Tributary agent starting/);
    await server.call('GET', '/v1/does-not-exist');
    const web = await server.call('GET', '/v1/log/stream/agent_web.log');
    const lines: string[] = web.json.response;
    expect(lines.some((l) => /\| INFO \| GET \/v1\/does-not-exist 404 \d+\.\dms$/.test(l))).toBe(true);
    expect(lines.some((l) => /GET \/v1\/log\/stream\/agent_core.log 200 /.test(l))).toBe(true);
  });

  it('honours ?lines and refuses a bad value', async () => {
    for (let i = 0; i < 30; i += 1) await server.call('GET', '/v1/status');
    const three = await server.call('GET', '/v1/log/stream/agent_web.log?lines=3');
    expect(three.json.response).toHaveLength(3);
    const all = await server.call('GET', '/v1/log/stream/agent_web.log?lines=100000');
    expect(three.json.response).toEqual(all.json.response.slice(-4, -1));
    for (const bad of ['0', '100001', 'many', '-5']) {
      const { status, json } = await server.call('GET', `/v1/log/stream?lines=${bad}`);
      expect(status).toBe(400);
      expect(json.success).toBe(false);
    }
  });

  it('honours ?since: only lines after that time', async () => {
    await server.call('GET', '/v1/status');
    const first = await server.call('GET', '/v1/log/stream/agent_web.log');
    const last: string = first.json.response.at(-1);
    const since = LINE.exec(last)![1]!;
    await server.call('GET', '/v1/streams');
    const { json } = await server.call('GET', `/v1/log/stream/agent_web.log?since=${encodeURIComponent(since)}`);
    expect(json.response.length).toBeGreaterThanOrEqual(2);
    expect(json.response.some((l: string) => l.includes('GET /v1/streams 200'))).toBe(true);
    for (const line of json.response) expect(LINE.exec(line)![1]! > since).toBe(true);
    const iso = await server.call('GET', `/v1/log/stream?since=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`);
    expect(iso.json.response).toEqual([]);
    const bad = await server.call('GET', '/v1/log/stream?since=yesterday');
    expect(bad.status).toBe(400);
  });

  it('refuses names outside the allowlist and path tricks with 404, never reading another file', async () => {
    fs.writeFileSync(path.join(server.dataDirectory, 'logs', 'secret.log'), 'do not read\n');
    const tricks = ['secret.log', '..%2Fapi-token', '..%2F..%2Fetc%2Fpasswd', '%2Fetc%2Fpasswd', 'agent_core.log%00', 'agent_core.log.1', 'AGENT_CORE.LOG', '%2E%2E'];
    for (const name of tricks) {
      const { status, json } = await server.call('GET', `/v1/log/stream/${name}`);
      expect([404], name).toContain(status);
      expect(json.success).toBe(false);
      expect(JSON.stringify(json)).not.toContain('do not read');
      expect(JSON.stringify(json)).not.toContain(server.token);
    }
    const nested = await server.call('GET', '/v1/log/stream/../../api-token');
    expect(nested.status).toBe(404);
    expect(JSON.stringify(nested.json)).not.toContain(server.token);
  });

  it('never writes secrets into the logs', async () => {
    await server.call('POST', '/v1/config', specExampleConfiguration());
    await server.call('POST', '/v1/config/validate', specExampleConfiguration());
    await server.call('GET', `/?token=${server.token}`);
    const text = fs.readdirSync(path.join(server.dataDirectory, 'logs')).map((f) => fs.readFileSync(path.join(server.dataDirectory, 'logs', f), 'utf8')).join('\n');
    expect(text).not.toContain('secret-api-key-123');
    expect(text).not.toContain(server.token);
    expect(text).toMatch(/GET \/\?token=\*{8} /);
  });
});
