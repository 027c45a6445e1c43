/**
 * Every route of the route table against every role, over HTTP with real named tokens. Generated
 * from the table: a new route is tested as soon as it exists, and one without a role fails here.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLES, type Role, roleAllows } from '../../../shared/api/roles.js';
import { ROUTES, type RouteContract } from '../../../shared/api/routes.js';
import { specExampleConfiguration } from '../../../shared/testing/config-fixtures.js';
import { type TestServer, startTestServer } from '../../testing/test-host.js';

let server: TestServer;
const tokens = {} as Record<Role, string>;

beforeAll(async () => {
  server = await startTestServer();
  await server.call('POST', '/v1/config', specExampleConfiguration());
  for (const role of ROLES) {
    const created = await server.call('POST', '/v1/tokens', { name: `matrix-${role}`, role });
    expect(created.status, JSON.stringify(created.json)).toBe(200);
    tokens[role] = created.json.response.token;
  }
});
afterAll(async () => {
  await server.close();
});

/** A path for the route with made-up parameters (unknown names answer 404 after the role check). */
const pathFor = (route: RouteContract) => route.path.replace(/:(\w+)/g, (_, name: string) => (name === 'protocol' ? 'basic' : name === 'log_filename' ? 'agent_core.log' : 'no-such-name'));

const as = (role: Role, method: string, pathAndQuery: string, body?: unknown) => server.call(method, pathAndQuery, body, { authorization: `Bearer ${tokens[role]}` });

describe('each role against every route of the route table', () => {
  it('every route names a known role', () => {
    for (const route of ROUTES as readonly RouteContract[]) expect(ROLES, `${route.method} ${route.path} has no role`).toContain(route.role);
  });

  it('the table gives each route the role docs/security.md defines', () => {
    // viewer: every GET (but the token list and the audit trail) and what only validates or computes; operator: what
    // runs or stops data collection and previews; admin: what changes configuration or tokens.
    const operator = new Set(['startAgent', 'stopAgent', 'restartAgent', 'restream', 'previewConfig']);
    const viewerPosts = new Set(['validateConfig', 'validateKpi', 'evaluateKpi']);
    for (const route of ROUTES as readonly RouteContract[]) {
      // The audit trail says who did what: admins only (issue 56).
      const expected = route.path.startsWith('/v1/tokens') || route.id === 'auditLog' ? 'admin' : route.method === 'GET' || viewerPosts.has(route.id) ? 'viewer' : operator.has(route.id) ? 'operator' : 'admin';
      expect(route.role, `${route.method} ${route.path}`).toBe(expected);
    }
  });

  it('a viewer may read the configuration history (issue 33 point 2: every GET, history included)', () => {
    const history = (ROUTES as readonly RouteContract[]).filter((route) => route.path.startsWith('/v1/config/history'));
    expect(history.map((route) => `${route.method} ${route.path} ${route.role}`)).toEqual([
      'GET /v1/config/history viewer',
      'GET /v1/config/history/:revision viewer',
    ]);
  });

  for (const route of ROUTES as readonly RouteContract[]) {
    for (const role of ROLES) {
      const allowed = roleAllows(role, route.role);
      it(`${role} ${allowed ? 'may' : 'may not'} ${route.method} ${route.path}`, async () => {
        // No body: an allowed request that needs one gets 400 without its handler running, so the
        // matrix changes nothing (a refused one is refused before its body is looked at).
        const { status, json } = await as(role, route.method, pathFor(route));
        if (allowed) expect(status, JSON.stringify(json)).not.toBe(403);
        else {
          expect(status).toBe(403);
          expect(json.success).toBe(false);
          expect(json.response).toEqual({ required_role: route.role });
          expect(json.error.text).toContain(`needs the ${route.role} role`);
          expect(json.error.text).toContain(`"matrix-${role}" has the ${role} role`);
        }
      });
    }
  }
});

describe('preview', () => {
  it('an operator previews the saved configuration but not an unsaved one; an admin both', async () => {
    const saved = await as('operator', 'POST', '/v1/config/preview', { rows: 1 });
    expect(saved.status, JSON.stringify(saved.json)).not.toBe(403);
    expect(saved.status).not.toBe(400);
    const unsaved = await as('operator', 'POST', '/v1/config/preview', { configuration: specExampleConfiguration(), rows: 1 });
    expect(unsaved.status).toBe(403);
    expect(unsaved.json.response).toEqual({ required_role: 'admin' });
    expect(unsaved.json.error.text).toContain('Previewing an unsaved configuration needs the admin role');
    const admin = await as('admin', 'POST', '/v1/config/preview', { configuration: specExampleConfiguration(), rows: 1 });
    expect(admin.status).not.toBe(403);
    expect((await as('viewer', 'POST', '/v1/config/preview', { rows: 1 })).status).toBe(403);
  });
});

describe('tokens', () => {
  it('lists names, roles and times, never a token or its hash; the file is 0600', async () => {
    const { json } = await server.call('GET', '/v1/tokens');
    const names = json.response.map((t: { name: string }) => t.name);
    expect(names).toEqual(expect.arrayContaining(['bootstrap', 'matrix-viewer', 'matrix-operator', 'matrix-admin']));
    const text = JSON.stringify(json);
    for (const token of Object.values(tokens)) expect(text).not.toContain(token);
    expect(text).not.toMatch(/hash|salt/);
    const viewer = json.response.find((t: { name: string }) => t.name === 'matrix-viewer');
    expect(viewer).toMatchObject({ role: 'viewer', bootstrap: false });
    expect(viewer.last_used).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:00Z$/);
    const file = path.join(server.dataDirectory, 'api-tokens.json');
    const stored = fs.readFileSync(file, 'utf8');
    for (const token of Object.values(tokens)) expect(stored).not.toContain(token);
    if (process.platform !== 'win32') expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });

  it('a name in use is refused; bad names and roles are refused with the reason', async () => {
    expect((await server.call('POST', '/v1/tokens', { name: 'matrix-viewer', role: 'admin' })).status).toBe(409);
    const badRole = await server.call('POST', '/v1/tokens', { name: 'x', role: 'root' });
    expect(badRole.status).toBe(400);
    expect(badRole.json.error.text).toContain('role must be viewer, operator or admin');
    expect((await server.call('POST', '/v1/tokens', { name: 'bootstrap', role: 'viewer' })).status).toBe(400);
    expect((await server.call('POST', '/v1/tokens', { name: '..', role: 'viewer' })).status).toBe(400);
  });

  it('revoking takes effect on the next request; the bootstrap token cannot be revoked', async () => {
    const created = await server.call('POST', '/v1/tokens', { name: 'shift-b', role: 'operator' });
    const token = created.json.response.token as string;
    const headers = { authorization: `Bearer ${token}` };
    expect((await server.call('GET', '/v1/status', undefined, headers)).status).toBe(200);
    expect((await server.call('DELETE', '/v1/tokens/shift-b')).status).toBe(200);
    const after = await server.call('GET', '/v1/status', undefined, headers);
    expect(after.status).toBe(401);
    expect((await server.call('DELETE', '/v1/tokens/shift-b')).status).toBe(404);
    expect((await server.call('DELETE', '/v1/tokens/bootstrap')).status).toBe(409);
    expect((await server.call('GET', '/v1/status')).status).toBe(200);
  });

  it('GET /metrics takes any valid token (viewer and up), none without one', async () => {
    const metrics = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${tokens.viewer}` } });
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toContain('# HELP');
    expect((await fetch(`${server.url}/metrics`)).status).toBe(401);
  });

  it('the session says who the token is and that plain loopback HTTP is not encrypted', async () => {
    const { json } = await as('operator', 'GET', '/v1/session');
    expect(json.response).toEqual({ name: 'matrix-operator', role: 'operator', connection: 'http', encrypted: false, insecure: false });
  });
});

describe('audit log', () => {
  const auditLines = (name = 'audit.log') => fs.readFileSync(path.join(server.dataDirectory, 'logs', name), 'utf8').trim().split('\n');

  it('one line per state-changing and per refused request, with the saving revision; never a token', async () => {
    const save = await as('admin', 'POST', '/v1/config', specExampleConfiguration());
    expect(save.status).toBe(200);
    const revision = save.json.meta.revision as number;
    await as('viewer', 'POST', '/v1/agent/stop');
    await fetch(`${server.url}/v1/status`, { headers: { authorization: 'Bearer not-a-token-at-all-xyz' } });
    const lines = auditLines();
    expect(lines).toEqual(expect.arrayContaining([expect.stringMatching(new RegExp(`\\| token=matrix-admin \\| role=admin \\| POST /v1/config \\| 200 ok \\| revision=${revision}$`))]));
    // Refusals are in a file of their own (issue 50), the route's pattern for a 403.
    const refused = auditLines('audit-refused.log');
    expect(refused).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/\| token=matrix-viewer \| role=viewer \| POST \/v1\/agent\/stop \| 403 refused: needs operator$/),
        expect.stringMatching(/\| token=- \| role=- \| GET \/v1\/status \| 401 unauthenticated$/),
      ]),
    );
    expect(lines.some((line) => / 40[13] /.test(line))).toBe(false);
    // A viewer's reads are not audited.
    expect(lines.some((line) => line.includes('GET /v1/streams'))).toBe(false);
    const text = [...lines, ...refused].join('\n');
    for (const token of [...Object.values(tokens), server.token, 'not-a-token-at-all-xyz']) expect(text).not.toContain(token);
  });

  it('records the token that saved a configuration version', async () => {
    const save = await as('admin', 'POST', '/v1/config', specExampleConfiguration());
    const read = await as('viewer', 'GET', '/v1/config');
    expect(read.json.meta).toMatchObject({ revision: save.json.meta.revision, saved_by: 'matrix-admin' });
  });
});
