/**
 * Token names as people write them (issue 56 point 7): any printable Unicode up to 64 characters,
 * refused in words that say what to change.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, startTestServer } from '../testing/test-host.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

const create = (name: string) => server.call('POST', '/v1/tokens', { name, role: 'viewer' });

describe('token names', () => {
  it('takes names with spaces, umlauts, other scripts and punctuation, lists them and revokes them by name', async () => {
    const names = ['Kollege Müller', 'Schicht B (Tablet)', '设备 读取', 'Zoë’s laptop #2', 'ü'.repeat(64)];
    for (const name of names) {
      const created = await create(name);
      expect(created.status, `${name}: ${JSON.stringify(created.json)}`).toBe(200);
      expect(created.json.response.name).toBe(name);
    }
    const listed = (await server.call('GET', '/v1/tokens')).json.response.map((t: { name: string }) => t.name);
    expect(listed).toEqual(expect.arrayContaining(names));
    const revoked = await server.call('DELETE', `/v1/tokens/${encodeURIComponent('Kollege Müller')}`);
    expect(revoked.status).toBe(200);
    expect((await server.call('GET', '/v1/tokens')).json.response.map((t: { name: string }) => t.name)).not.toContain('Kollege Müller');
  });

  it('refuses a name over 64 characters, control characters and line breaks, saying why', async () => {
    const long = await create('a'.repeat(65));
    expect(long.status).toBe(400);
    expect(long.json.error.text).toMatch(/65 characters long; at most 64/);
    for (const name of ['line\nbreak', 'tab\there', 'bell\u0007', 'zero\u200bwidth']) {
      const refused = await create(name);
      expect(refused.status, JSON.stringify(name)).toBe(400);
      expect(refused.json.error.text).toMatch(/cannot be shown \(U\+[0-9A-F]{4}\)/);
    }
    const empty = await create('   ');
    expect(empty.status).toBe(400);
    expect(empty.json.error.text).toMatch(/Give the token a name/);
  });
});
