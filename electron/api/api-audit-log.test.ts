/**
 * GET /v1/log/stream/audit (issue 56 point 4): the audit trail for admins, with the filters of the
 * other logs; every other role is refused with 403.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { specExampleConfiguration } from '../../shared/testing/config-fixtures.js';
import { type TestServer, startTestServer } from '../testing/test-host.js';

let server: TestServer;
const tokens: Record<string, string> = {};
const STAMP = /^(\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}) \| /;

beforeAll(async () => {
  server = await startTestServer();
  for (const role of ['viewer', 'operator'] as const) {
    const created = await server.call('POST', '/v1/tokens', { name: `Kollege ${role}`, role });
    expect(created.status, JSON.stringify(created.json)).toBe(200);
    tokens[role] = created.json.response.token;
  }
  await server.call('POST', '/v1/config', specExampleConfiguration());
  // A failed save (400: not JSON of a configuration) and an operator's stop: lines of other levels and tokens.
  await server.call('POST', '/v1/config', { data_receiver: 'nope' });
  await server.call('POST', '/v1/agent/stop', undefined, { authorization: `Bearer ${tokens.operator}` });
});
afterAll(async () => {
  await server.close();
});

const audit = (query = '', token?: string) => server.call('GET', `/v1/log/stream/audit${query}`, undefined, token ? { authorization: `Bearer ${token}` } : undefined);

describe('GET /v1/log/stream/audit', () => {
  it('gives an admin who did what, oldest first, with the revision a save made', async () => {
    const { status, json } = await audit();
    expect(status).toBe(200);
    expect(json.success).toBe(true);
    const lines: string[] = json.response;
    expect(lines.some((l) => /\| token=bootstrap \| role=admin \| POST \/v1\/tokens \| 200 ok$/.test(l))).toBe(true);
    expect(lines.some((l) => /\| token=bootstrap \| role=admin \| POST \/v1\/config \| 200 ok \| revision=\d+$/.test(l))).toBe(true);
    expect(lines.some((l) => /\| token=Kollege operator \| role=operator \| POST \/v1\/agent\/stop \| 200 ok$/.test(l))).toBe(true);
    const stamps = lines.map((l) => STAMP.exec(l)![1]!);
    expect(stamps).toEqual([...stamps].sort());
    expect(json.meta.newest_line_at).toBe(stamps.at(-1));
  });

  it('refuses viewers and operators with 403', async () => {
    for (const role of ['viewer', 'operator']) {
      const { status, json } = await audit('', tokens[role]);
      expect(status, role).toBe(403);
      expect(json.success).toBe(false);
    }
  });

  it('takes the filters of the other logs: lines, component (the token), level (by status), since and until', async () => {
    const two = await audit('?lines=2');
    expect(two.json.response).toHaveLength(2);
    expect(two.json.meta.has_older).toBe(true);
    const operator = await audit(`?component=${encodeURIComponent('Kollege operator')}`);
    expect(operator.json.response.length).toBeGreaterThan(0);
    for (const line of operator.json.response) expect(line).toContain('| token=Kollege operator |');
    const problems = await audit('?level=WARNING');
    expect(problems.json.response.length).toBeGreaterThan(0);
    for (const line of problems.json.response) expect(line).toMatch(/\| [45]\d\d /);
    const all: string[] = (await audit()).json.response;
    const middle = STAMP.exec(all[1]!)![1]!;
    const after = await audit(`?since=${encodeURIComponent(middle)}`);
    for (const line of after.json.response) expect(STAMP.exec(line)![1]! > middle).toBe(true);
    const before = await audit(`?until=${encodeURIComponent(middle)}`);
    for (const line of before.json.response) expect(STAMP.exec(line)![1]! <= middle).toBe(true);
    expect(after.json.response.length + before.json.response.length).toBeGreaterThanOrEqual(all.length);
    const bad = await audit('?level=LOUD');
    expect(bad.status).toBe(400);
  });

  it('is not one of the files the named route reads: audit.log stays unreachable there', async () => {
    const { status } = await server.call('GET', '/v1/log/stream/audit.log');
    expect(status).toBe(404);
  });
});
