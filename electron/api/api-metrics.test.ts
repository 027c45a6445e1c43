import { afterEach, describe, expect, it } from 'vitest';
import { type TestServer, startTestServer } from '../testing/test-host.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('GET /metrics', () => {
  it('answers 401 without the Bearer token or with a wrong one, and nothing else', async () => {
    server = await startTestServer();
    const attempts: Record<string, string>[] = [{}, { Authorization: 'Bearer wrong-token-of-some-length' }, { Authorization: server.token }];
    for (const headers of attempts) {
      const response = await fetch(`${server.url}/metrics`, { headers });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer');
      expect(await response.text()).not.toContain('tributary_');
    }
  });

  it('serves the Prometheus text format with the token; other methods get 405', async () => {
    server = await startTestServer();
    const authorization = { Authorization: `Bearer ${server.token}` };
    const response = await fetch(`${server.url}/metrics`, { headers: authorization });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await response.text();
    expect(text).toContain('# TYPE tributary_records_read_total counter');
    expect(text).toContain('# TYPE tributary_backlog_records gauge');
    expect(text).toMatch(/^tributary_agent_up 1$/m);
    expect(text).toMatch(/^process_cpu_user_seconds_total /m);
    const post = await fetch(`${server.url}/metrics`, { method: 'POST', headers: authorization });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });
});
