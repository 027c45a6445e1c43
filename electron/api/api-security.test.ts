import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { specExampleConfiguration } from '../../shared/testing/config-fixtures.js';
import { type TestServer, startTestServer } from '../testing/test-host.js';

let server: TestServer;
const configFile = () => path.join(server.dataDirectory, 'conf.d', 'tributary.json');

beforeAll(async () => {
  server = await startTestServer();
  await server.call('POST', '/v1/config', specExampleConfiguration());
});
afterAll(async () => {
  await server.close();
});

/** A raw request, for headers fetch will not let us set (Host) or bodies it would not send. */
function raw(options: http.RequestOptions, body?: Buffer | string): Promise<{ status: number; json: any }> {
  return new Promise((resolve, reject) => {
    const request = http.request({ host: '127.0.0.1', port: server.host.http!.port, ...options }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (c) => chunks.push(c));
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString();
        let json: unknown = text;
        try {
          json = JSON.parse(text);
        } catch {
          /* plain text */
        }
        resolve({ status: response.statusCode!, json });
      });
    });
    request.on('error', reject);
    if (body !== undefined) request.write(body);
    request.end();
  });
}

describe('authentication', () => {
  it('refuses a missing or wrong token with 401 and the envelope', async () => {
    for (const authorization of [undefined, 'Bearer wrong', `Basic ${server.token}`, 'Bearer', `Bearer ${server.token}x`]) {
      const { status, json } = await server.call('GET', '/v1/config', undefined, authorization === undefined ? { authorization: '' } : { authorization });
      expect(status, String(authorization)).toBe(401);
      expect(json).toEqual({ success: false, response: {}, error: { code: 401, text: expect.any(String) } });
    }
  });

  it('does not change the configuration without the token', async () => {
    const before = fs.readFileSync(configFile(), 'utf8');
    const { status } = await server.call('POST', '/v1/config', { data_receiver: [], transforms: [], data_transmit: [] }, { authorization: 'Bearer nope' });
    expect(status).toBe(401);
    expect(fs.readFileSync(configFile(), 'utf8')).toBe(before);
  });
});

describe('Host header check (DNS rebinding)', () => {
  it('refuses foreign host names and accepts the loopback names', async () => {
    const auth = { authorization: `Bearer ${server.token}` };
    const foreign = await raw({ path: '/v1/status', headers: { ...auth, host: 'evil.example.com' } });
    expect(foreign.status).toBe(403);
    expect(foreign.json.success).toBe(false);
    for (const host of [`localhost:${server.host.http!.port}`, `127.0.0.1:${server.host.http!.port}`, '127.0.0.1']) {
      expect((await raw({ path: '/v1/status', headers: { ...auth, host } })).status, host).toBe(200);
    }
  });

  it('accepts names given with --allow-host', async () => {
    const other = await startTestServer({ http: { host: '127.0.0.1', port: 0, allowedHosts: ['edge-pc-7'] } });
    try {
      const response = await new Promise<number>((resolve, reject) => {
        http.get({ host: '127.0.0.1', port: other.host.http!.port, path: '/v1/status', headers: { host: 'edge-pc-7:4900', authorization: `Bearer ${other.token}` } }, (r) => {
          r.resume();
          resolve(r.statusCode!);
        }).on('error', reject);
      });
      expect(response).toBe(200);
    } finally {
      await other.close();
    }
  });
});

describe('bad requests', () => {
  it('answers malformed JSON with 400 and leaves the configuration alone', async () => {
    const before = fs.readFileSync(configFile(), 'utf8');
    for (const body of ['{"data_receiver": [', '{data_receiver: []}', "{'a': 1}", 'null x']) {
      const { status, json } = await server.call('POST', '/v1/config', body);
      expect(status, body).toBe(400);
      expect(json.success).toBe(false);
      expect(json.error.code).toBe(400);
    }
    expect(fs.readFileSync(configFile(), 'utf8')).toBe(before);
  });

  it('answers wrong types in the body with violations, never a crash', async () => {
    for (const body of ['[]', '"text"', '42', 'null', 'true']) {
      const { status, json } = await server.call('POST', '/v1/config', body);
      expect(status, body).toBe(422);
      expect(json.response.violations[0].json_path).toEqual([]);
    }
    expect((await server.call('GET', '/v1/status')).status).toBe(200);
  });

  it('refuses bodies over 8 MiB with 413, whether declared or streamed', async () => {
    const auth = { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' };
    const declared = await raw({ method: 'POST', path: '/v1/config', headers: { ...auth, 'content-length': String(9 * 1024 * 1024) } }, '{}');
    expect(declared.status).toBe(413);
    expect(declared.json.success).toBe(false);
    const huge = JSON.stringify({ ...specExampleConfiguration(), padding: 'x'.repeat(9 * 1024 * 1024) });
    const streamed = await raw({ method: 'POST', path: '/v1/config', headers: { ...auth, 'transfer-encoding': 'chunked' } }, huge);
    expect(streamed.status).toBe(413);
    expect((await server.call('GET', '/v1/config')).json.response.padding).toBeUndefined();
  });

  it('answers 10,000 levels of nesting with 400, not a stack trace', async () => {
    const { status, json } = await server.call('POST', '/v1/config', `${'['.repeat(10_000)}${']'.repeat(10_000)}`);
    expect(status).toBe(400);
    expect(json).toEqual({ success: false, response: {}, error: { code: 400, text: expect.stringContaining('nested deeper than 64 levels') } });
    expect((await server.call('POST', '/v1/config/validate', `{"a": ${'{"b": '.repeat(10_000)}1${'}'.repeat(10_001)}`)).status).toBe(400);
  });

  it('accepts a UTF-8 byte order mark before the JSON', async () => {
    const { status, json } = await server.call('POST', '/v1/config/validate', `\uFEFF${JSON.stringify(specExampleConfiguration())}`);
    expect(status).toBe(200);
    expect(json.response.status).toBe('passed');
  });

  it('refuses __proto__ and constructor keys with 400 and saves nothing', async () => {
    const before = fs.readFileSync(configFile(), 'utf8');
    for (const body of ['{"__proto__": {"data_transmit": []}}', '{"data_transmit": [], "data_receiver": [{"constructor": {}}]}', '{"\\u005f_proto__": {}, "data_transmit": []}']) {
      const { status, json } = await server.call('POST', '/v1/config', body);
      expect(status, body).toBe(400);
      expect(json.error.text, body).toMatch(/is not allowed/);
    }
    expect(fs.readFileSync(configFile(), 'utf8')).toBe(before);
    expect((await server.call('GET', '/v1/status')).json.response.agent.status).toBe('running');
  });

  it('never logs the API token, wherever a request puts it', async () => {
    const token = server.token;
    await server.call('GET', `/v1/${token}`);
    await server.call('GET', `/v1/status?access=${token}&t=${encodeURIComponent(`Bearer ${token}`)}`);
    await server.call('GET', `/v1/log/stream/${token}`);
    await server.call('GET', `/v1/nothing?token=${token}`, undefined, { authorization: '' });
    const logs = fs.readdirSync(path.join(server.dataDirectory, 'logs')).map((f) => fs.readFileSync(path.join(server.dataDirectory, 'logs', f), 'utf8')).join('\n');
    expect(logs).toContain('GET /v1/******** 404');
    expect(logs).not.toContain(token);
  });

  it('refuses a body that is not JSON by content type with 415', async () => {
    const { status, json } = await server.call('POST', '/v1/config/validate', 'a=1', { 'content-type': 'application/x-www-form-urlencoded' });
    expect(status).toBe(415);
    expect(json.success).toBe(false);
  });

  it('answers unknown routes with 404 and wrong methods with 405, in the envelope', async () => {
    const unknown = await server.call('GET', '/v1/nothing/here');
    expect(unknown.status).toBe(404);
    expect(unknown.json).toEqual({ success: false, response: {}, error: { code: 404, text: expect.stringContaining('/v1/nothing/here') } });
    const wrong = await server.call('DELETE', '/v1/config');
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('GET, POST');
    expect(wrong.json.success).toBe(false);
    expect((await server.call('GET', '/v1/agent/start')).status).toBe(405);
  });

  it('sends the API version header on every response, errors included', async () => {
    for (const [method, p] of [['GET', '/v1/status'], ['GET', '/v1/nope'], ['DELETE', '/v1/config']] as const) {
      const { headers } = await server.call(method, p);
      expect(headers.get('x-tributary-api-version')).toMatch(/^1\.\d+$/);
    }
    const unauthorized = await server.call('GET', '/v1/status', undefined, { authorization: '' });
    expect(unauthorized.headers.get('x-tributary-api-version')).toMatch(/^1\.\d+$/);
  });
});
