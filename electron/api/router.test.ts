import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../../shared/api/routes.js';
import { type TestServer, startTestServer } from '../testing/test-host.js';
import type { ApiRequest } from './router.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

/** Straight into the router, without a socket (the route table applies the same on HTTP and IPC). */
const dispatch = (request: Partial<ApiRequest> & { method: string; path: string }) => server.host.router.dispatch({ query: {}, headers: {}, ...request });

describe('the router applies each route contract once', () => {
  it('refuses a query value its schema refuses, with the schema’s words, before any handler runs', async () => {
    const reply = await dispatch({ method: 'GET', path: '/v1/log/stream', query: { lines: 'many' } });
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ success: false, error: { code: 400, text: 'The query parameter lines is not valid: lines must be a whole number from 1 to 100000.' } });
    const kind = await dispatch({ method: 'POST', path: '/v1/kpis/validate', query: { kind: 'plant' }, body: {} });
    expect(kind.body.error?.text).toBe('The query parameter kind is not valid: kind must be line or machine_type.');
  });

  it('fills defaults and leaves out empty values: ?lines absent is 1000 lines at most, ?kind= is no kind', async () => {
    const lines = await dispatch({ method: 'GET', path: '/v1/log/stream/agent_web.log' });
    expect(lines.status).toBe(200);
    expect((lines.body.response as string[]).length).toBeLessThanOrEqual(1000);
    const detected = await dispatch({ method: 'POST', path: '/v1/kpis/validate', query: { kind: '' }, body: { name: 'x' } });
    expect(detected.status).toBe(200);
    expect(detected.body.meta).toEqual({ kind: 'machine_type' });
  });

  it('names a missing required query parameter', async () => {
    const reply = await dispatch({ method: 'GET', path: '/v1/opcua/browse', query: { node: 'i=85' } });
    expect(reply.status).toBe(400);
    expect(reply.body.error?.text).toBe('The query parameter receiver is missing: data_receiver_name of a saved opcua receiver.');
  });

  it('refuses a body that does not fit the route, naming what to send', async () => {
    const reply = await dispatch({ method: 'POST', path: '/v1/restream', body: { plant: 'Press_1:cycle' } });
    expect(reply.status).toBe(400);
    expect(reply.body.error?.text).toMatch(/^The request body is not valid: .*expected array.* at plant.*Send \{"<data_receiver_name>"/);
    const evaluation = await dispatch({ method: 'POST', path: '/v1/kpis/evaluate', body: { name: 'oee', machine: 'x' } });
    expect(evaluation.body.error?.text).toMatch(/^The request body is not valid: Unrecognized key: "machine"/);
  });

  it.each(ROUTES.filter((route) => 'body' in route).map((route) => [route.id, route.method, route.path] as const))('%s refuses a request without a body with 400', async (_id, method, path) => {
    const reply = await dispatch({ method, path: path.replace(/:\w+/g, 'x') });
    expect(reply.status).toBe(400);
    expect(reply.body.error?.text).toMatch(/^Send .* as JSON in the request body \(Content-Type: application\/json\)\.$/);
  });

  it('keeps a configuration that fails validation an answer (violations), not a refused request', async () => {
    const reply = await dispatch({ method: 'POST', path: '/v1/config/validate', body: ['not', 'an', 'object'] });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ success: false, response: { status: 'failed' } });
  });
});
