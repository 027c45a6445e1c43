import { describe, expect, it } from 'vitest';
import { ApiClient } from './client.js';
import { ApiRequestError } from './errors.js';
import type { ApiRequest, RawReply, Transport } from './transport.js';

/** A transport that records requests and answers from a list. */
function fakeTransport(...replies: RawReply[]): Transport & { sent: ApiRequest[] } {
  const sent: ApiRequest[] = [];
  return { kind: 'http', sent, send: async (request) => (sent.push(request), replies.shift() ?? { status: 500, body: undefined }) };
}
const ok = (response: unknown, meta?: Record<string, unknown>): RawReply => ({ status: 200, body: { success: true, response, ...(meta ? { meta } : {}) } });

describe('the console client, derived from the route table', () => {
  it('builds method, path (parameters encoded) and query from the route', async () => {
    const transport = fakeTransport(ok(['a'], { newest_line_at: null, has_older: false }), ok({ name: 'k/1' }, { kind: 'line', last_modified: '2026-01-05 06:00:00.000000' }), ok('deleted'));
    const client = new ApiClient(transport, () => undefined);
    expect(await client.log('agent_web.log', { lines: 3 })).toEqual({ lines: ['a'], newestLineAt: null, hasOlder: false });
    await client.kpis.save('k/1', { name: 'k/1' });
    await client.kpis.remove('k/1');
    expect(transport.sent).toEqual([
      { method: 'GET', path: '/v1/log/stream/agent_web.log?lines=3' },
      { method: 'PUT', path: '/v1/kpis/k%2F1', body: { name: 'k/1' } },
      { method: 'DELETE', path: '/v1/kpis/k%2F1' },
    ]);
  });

  it('parses answers with the route’s response schema and refuses an unexpected form', async () => {
    const client = new ApiClient(fakeTransport(ok('running'), ok('sleeping')), () => undefined);
    expect(await client.agent('start')).toBe('running');
    await expect(client.agent('start')).rejects.toThrow(/POST \/v1\/agent\/start in an unexpected form/);
  });

  it('returns failures the route declares as answers (violations), and throws the others with the agent’s text', async () => {
    const violations = [{ json_path: ['data_transmit'], level: 'error', description: 'must be a list' }];
    const client = new ApiClient(
      fakeTransport(
        { status: 422, body: { success: false, response: { status: 'failed', violations }, error: { code: 422, text: 'The configuration has 1 error(s)' } } },
        { status: 409, body: { success: false, response: {}, error: { code: 409, text: 'changed elsewhere' } } },
        { status: 500, body: { success: false, response: 'Nothing was restreamed: not configured: receiver "x".', error: { code: 500, text: 'Nothing was restreamed' } } },
      ),
      () => undefined,
    );
    expect(await client.saveConfig({}, null)).toEqual({ kind: 'invalid', violations });
    expect(await client.saveConfig({}, 7)).toEqual({ kind: 'conflict', message: 'changed elsewhere' });
    const refused = await client.restream({ x: [{ asset: 'a', stream_type: 'b' }] }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiRequestError);
    expect((refused as ApiRequestError).status).toBe(500);
  });

  it('reads the OpenAPI document bare (a raw route), and its failures still from the envelope', async () => {
    const document = { openapi: '3.1.0', paths: {} };
    const client = new ApiClient(
      fakeTransport({ status: 200, body: document }, { status: 500, body: { success: false, response: {}, error: { code: 500, text: 'Unexpected error: boom' } } }),
      () => undefined,
    );
    expect(await client.openApi()).toEqual(document);
    await expect(client.openApi()).rejects.toThrow('Unexpected error: boom');
  });
});

describe('an agent that does not answer', () => {
  const failing = (cause: Error): Transport => ({ kind: 'http', send: async () => Promise.reject(cause) });

  it('is said in plain words, not the browser’s "Failed to fetch", with status 0', async () => {
    const client = new ApiClient(failing(new TypeError('Failed to fetch')), () => undefined);
    const error = await client.agent('start').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiRequestError);
    expect((error as ApiRequestError).status).toBe(0);
    expect((error as Error).message).toMatch(/^No answer from the agent: it may be stopped or restarting/);
    expect((error as Error).message).not.toMatch(/fetch/i);
  });

  it('keeps a cause that says something (an IPC failure)', async () => {
    const client = new ApiClient(failing(new Error('IPC channel closed')), () => undefined);
    await expect(client.agent('start')).rejects.toThrow('The agent cannot be reached (IPC channel closed). Is Tributary running?');
  });
});
