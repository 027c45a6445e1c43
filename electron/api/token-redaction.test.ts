/**
 * Tokens never reach a log (issue 50): a named token sent as ?access_token=, ?api_key=, in the
 * path or on a refused request was written to agent_web.log, and a viewer read it back through the
 * log stream and made an admin token with it. And a log stream ends when its token is revoked.
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatSpecTimestamp } from '../../shared/api/envelope.js';
import { loggablePath, loggableRequest, redactTokenLike } from '../agent/logging/request-text.js';
import { waitFor } from '../testing/file-plant.js';
import { type TestServer, startTestServer } from '../testing/test-host.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

async function createToken(name: string, role: string): Promise<string> {
  const created = await server.call('POST', '/v1/tokens', { name, role });
  expect(created.json.success, JSON.stringify(created.json)).toBe(true);
  return created.json.response.token as string;
}

const logText = (name: string) => {
  const file = path.join(server.dataDirectory, 'logs', name);
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
};

describe('tokens in request lines', () => {
  it('redacts a named token sent in any query parameter, in the path, percent-encoded, or on a refused request', async () => {
    const viewer = await createToken('redaction-viewer', 'viewer');
    const admin = await createToken('redaction-admin', 'admin');
    const as = (token: string) => ({ authorization: `Bearer ${token}` });
    await server.call('GET', `/v1/status?access_token=${admin}`, undefined, as(viewer));
    await server.call('GET', `/v1/status?api_key=${admin}`, undefined, as(viewer));
    await server.call('GET', `/v1/status?q=${admin}`, undefined, as(viewer));
    await server.call('GET', `/v1/${admin}`, undefined, as(viewer));
    await server.call('GET', `/v1/tokens/${encodeURIComponent(`x ${admin}`)}`, undefined, as(viewer));
    // Refused (401): a wrong token in the header, the real one in the query.
    await server.call('GET', `/v1/status?token=${admin}&key=${viewer}`, undefined, { authorization: 'Bearer wrong-token-0000000000' });
    // Refused (403): an operator route a viewer may not use; audited.
    await server.call('POST', `/v1/agent/stop?auth=${admin}`, undefined, as(viewer));
    await server.call('DELETE', `/v1/tokens/${admin}`, undefined, as(viewer));
    const web = await waitFor(() => {
      const text = logText('agent_web.log');
      return text.includes('/v1/agent/stop') && text;
    }, 5000, 'the requests in the web log');
    for (const [name, text] of [['agent_web.log', web], ['audit.log', logText('audit.log')], ['audit-refused.log', logText('audit-refused.log')]] as const) {
      expect(text, name).not.toContain(admin);
      expect(text, name).not.toContain(viewer);
      expect(text, name).not.toContain(encodeURIComponent(admin));
    }
    expect(web).toMatch(/GET \/v1\/status\?access_token=\*{8} 200/);
    expect(web).toMatch(/GET \/v1\/\*{8} 404/);
    expect(logText('audit-refused.log')).toMatch(/POST \/v1\/agent\/stop \| 403/);

    // The viewer reads the web log through the API: no token there either.
    const read = await server.call('GET', '/v1/log/stream/agent_web.log?lines=500', undefined, as(viewer));
    expect(read.status).toBe(200);
    expect(JSON.stringify(read.json)).not.toContain(admin);
  });

  it('keeps ordinary paths and values readable', () => {
    const url = new URL('http://local/v1/log/stream/agent_core.log?lines=200&level=WARNING&component=Press_7_cycle_reader&since=2026-11-29T10:00:00Z');
    expect(loggableRequest(url, 2048)).toBe('/v1/log/stream/agent_core.log?lines=200&level=WARNING&component=Press_7_cycle_reader&since=2026-11-29T10%3A00%3A00Z');
    expect(loggablePath('/v1/config/history/12')).toBe('/v1/config/history/12');
    expect(redactTokenLike('machine_data_line_two')).toBe('machine_data_line_two');
    // The case beside: hex and base64 keys, not only base64url tokens.
    expect(redactTokenLike('a3f9c2e8b7d6a5f4e3d2c1b0a9f8e7d6')).toBe('********');
    expect(redactTokenLike('dGhpcyBpcyBhIHNlY3JldCBrZXk+Lz0=')).toBe('********');
  });
});

describe('a log stream of a revoked token', () => {
  it('ends within seconds of the revocation, also while its client reads nothing', async () => {
    const directory = path.join(server.dataDirectory, 'logs');
    const start = 1_767_600_000_000_000n;
    let text = '';
    for (let i = 0; i < 30_000; i += 1) text += `${formatSpecTimestamp(start + BigInt(i) * 1000n)} | http | api | INFO | GET /v1/status?n=${i}&pad=${'p'.repeat(300)} 200 0.4ms\n`;
    fs.writeFileSync(path.join(directory, 'agent_core.log'), text);
    const viewer = await createToken('streaming-viewer', 'viewer');
    const socket = net.connect(server.host.http!.port, '127.0.0.1');
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.on('error', () => {});
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.write(`GET /v1/log/stream/agent_core.log?lines=30000 HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${viewer}\r\n\r\n`);
    const first = await new Promise<string>((resolve) => socket.once('data', (chunk: Buffer) => resolve(chunk.toString('latin1'))));
    expect(first).toMatch(/^HTTP\/1\.1 200/);
    socket.pause(); // reads nothing more: the answer waits for the socket
    const revoked = await server.call('DELETE', '/v1/tokens/streaming-viewer');
    expect(revoked.json.success).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 2500));
    // Read on: a connection the server ended closes; one it kept (keep-alive) would stay open.
    let tail = '';
    socket.on('data', (chunk: Buffer) => (tail = (tail + chunk.toString('latin1')).slice(-200)));
    socket.resume();
    const ended = await Promise.race([closed.then(() => true), new Promise((resolve) => setTimeout(() => resolve(false), 5000))]);
    expect(ended).toBe(true);
    // Cut short: the envelope's end never came.
    expect(tail).not.toMatch(/\]\s*,?"?[a-z_]*"?.*\}\s*$/s);
    socket.destroy();
  });
});
