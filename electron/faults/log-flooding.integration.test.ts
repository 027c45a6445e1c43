/**
 * What anyone who reaches the port can do to the logs (issue 39): 3,000 requests without a token
 * and with 15 KB query strings rotated the whole web log away in 4 s. Refused requests are now
 * logged cut short, the first 20 a minute one by one and the rest counted, so the real entries stay.
 * The audit log likewise: 401s are audited in audit-refused.log, the first of a kind at once, then
 * one count a minute (issue 50); the actions in audit.log are not touched.
 * (Control characters in logged names: electron/agent/logging/logging.test.ts.)
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { REFUSALS_LOGGED_PER_MINUTE } from '../api/refusal-log.js';
import { type TestServer, startTestServer } from '../testing/test-host.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('log flooding', () => {
  it('3,000 unauthenticated requests with 15 KB query strings neither rotate nor fill the web log', async () => {
    server = await startTestServer();
    const server0 = server;
    const webLog = path.join(server.dataDirectory, 'logs', 'agent_web.log');
    const auditLog = path.join(server.dataDirectory, 'logs', 'audit.log');
    expect((await server.call('GET', '/v1/status?mark=before-the-flood')).status).toBe(200);
    // A real audit entry before the flood: an admin creates a token.
    expect((await server.call('POST', '/v1/tokens', { name: 'shift-b', role: 'viewer' })).status).toBe(200);
    const query = `q=${'A'.repeat(15_000)}`;
    for (let round = 0; round < 60; round += 1)
      await Promise.all(Array.from({ length: 50 }, () => fetch(`${server!.url}/v1/status?${query}`).then((r) => expect(r.status).toBe(401))));
    // The case beside: the console's files need no token; 1,000 requests for ones that do not exist.
    for (let round = 0; round < 20; round += 1)
      await Promise.all(Array.from({ length: 50 }, () => fetch(`${server!.url}/no-such-page?${query}`).then((r) => expect(r.status).toBeGreaterThanOrEqual(400))));
    expect((await server.call('GET', '/v1/status?mark=after-the-flood')).status).toBe(200);
    await server.close();
    server = undefined;
    expect(fs.existsSync(`${webLog}.1`)).toBe(false);
    const lines = fs.readFileSync(webLog, 'utf8').trimEnd().split('\n');
    expect(lines.some((l) => l.includes('GET /v1/status?mark=before-the-flood 200'))).toBe(true);
    expect(lines.some((l) => l.includes('GET /v1/status?mark=after-the-flood 200'))).toBe(true);
    const refused = lines.filter((l) => / (401|404|503) \d/.test(l));
    expect(refused).toHaveLength(REFUSALS_LOGGED_PER_MINUTE);
    for (const line of refused) expect(line).toMatch(/GET \/v1\/status\?q=A{187}… \(15013 characters\) 401 /);
    expect(lines.some((l) => l.endsWith(`| WARNING | ${4000 - REFUSALS_LOGGED_PER_MINUTE} more refused request(s) (missing or wrong API token, or a foreign Host) within a minute were not logged one by one.`))).toBe(true);
    expect(fs.statSync(webLog).size).toBeLessThan(64 * 1024);
    expect(fs.existsSync(`${auditLog}.1`)).toBe(false);
    const audit = fs.readFileSync(auditLog, 'utf8').trimEnd().split('\n');
    expect(audit.some((l) => l.includes('token=bootstrap') && l.includes('POST /v1/tokens | 200 ok'))).toBe(true);
    expect(audit.filter((l) => l.includes('401'))).toEqual([]);
    const auditRefused = fs.readFileSync(path.join(server0.dataDirectory, 'logs', 'audit-refused.log'), 'utf8').trimEnd().split('\n');
    expect(auditRefused.filter((l) => l.includes('GET /v1/status | 401 unauthenticated'))).toEqual([expect.stringMatching(/401 unauthenticated$/), expect.stringMatching(/401 unauthenticated \| 2999 more within the minute$/)]);
  });
});
