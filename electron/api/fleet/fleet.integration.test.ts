/**
 * The fleet with three real agent processes (the built `serve`): the desk's agent over http, two
 * plant agents with --tls. Pinning on first use and a wrong fingerprint, each console page's requests
 * through the proxy, roles applied by the desk, a killed agent, and a changed certificate that is not
 * talked to until re-pinned.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SERVE_SCRIPT } from '../../testing/serve-process.js';
import { tempDirectory } from '../../testing/test-host.js';

const CONSOLE_LINE = /^Tributary console: (https?):\/\/([^/]+)\/\?token=(\S+)(?: \(certificate SHA-256 ([0-9A-F:]+)\))?$/;
vi.setConfig({ testTimeout: 120_000, hookTimeout: 180_000 });

interface Agent {
  child: ChildProcess;
  url: string;
  port: number;
  token: string;
  fingerprint?: string;
  dataDirectory: string;
}

function serve(dataDirectory: string, args: string[] = [], port = 0): Promise<Agent> {
  const child = spawn(process.execPath, [SERVE_SCRIPT, '--data-dir', dataDirectory, '--port', String(port), ...args], { env: { ...process.env, TRIBUTARY_API_TOKEN: '' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr!.on('data', (d) => (err += d));
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      out += d;
      if (!out.includes('\n')) return;
      const match = CONSOLE_LINE.exec(out.split('\n')[0]!);
      if (!match) return reject(new Error(`unexpected first line: ${out}`));
      const listening = Number(match[2]!.split(':').at(-1));
      resolve({ child, url: `${match[1]}://127.0.0.1:${listening}`, port: listening, token: match[3]!, fingerprint: match[4], dataDirectory });
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}: ${err}`)));
  });
}

async function end(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise((r) => child.once('exit', r));
  child.kill(signal);
  await gone;
}

let desk: Agent;
let line1: Agent;
let line2: Agent;
const roleTokens: Record<string, string> = {};

async function call(method: string, pathAndQuery: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; headers: Headers; json: any }> {
  const response = await fetch(`${desk.url}${pathAndQuery}`, {
    method,
    headers: { authorization: `Bearer ${desk.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, json: await response.json() };
}
const as = (role: string) => ({ authorization: `Bearer ${roleTokens[role]}` });
const rowOf = async (name: string) => (await call('GET', '/v1/fleet')).json.response.agents.find((a: { name: string }) => a.name === name);

/** Polls GET /v1/fleet until the agent's row satisfies `ok` (the desk polls every 5 s). */
async function waitForRow(name: string, ok: (row: any) => boolean, limitMs = 20_000): Promise<{ row: any; ms: number }> {
  const started = Date.now();
  for (;;) {
    const row = await rowOf(name);
    if (ok(row)) return { row, ms: Date.now() - started };
    if (Date.now() - started > limitMs) throw new Error(`the row of ${name} did not change in ${limitMs} ms: ${JSON.stringify(row)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

beforeAll(async () => {
  [desk, line1, line2] = await Promise.all([serve(tempDirectory()), serve(tempDirectory(), ['--tls']), serve(tempDirectory(), ['--tls'])]);
  for (const role of ['viewer', 'operator']) roleTokens[role] = (await call('POST', '/v1/tokens', { name: `fleet-${role}`, role })).json.response.token;
});
afterAll(async () => {
  await Promise.all([desk, line1, line2].filter(Boolean).map((agent) => end(agent.child)));
});

describe('adding agents', () => {
  it('pins line-1\'s certificate on first use, and adds line-2 only with its own fingerprint', async () => {
    const tofu = await call('POST', '/v1/fleet/agents', { name: 'line-1', url: line1.url, token: line1.token });
    expect(tofu.status, JSON.stringify(tofu.json)).toBe(200);
    expect(tofu.json.response.fingerprint).toBe(line1.fingerprint);
    const wrong = await call('POST', '/v1/fleet/agents', { name: 'line-2', url: line2.url, token: line2.token, fingerprint: line1.fingerprint });
    expect(wrong.status).toBe(422);
    expect(wrong.json.error.text).toContain(line2.fingerprint);
    expect((await rowOf('line-2'))).toBeUndefined();
    const pinned = await call('POST', '/v1/fleet/agents', { name: 'line-2', url: line2.url, token: line2.token, fingerprint: line2.fingerprint!.replace(/:/g, '').toLowerCase() });
    expect(pinned.status).toBe(200);
    expect(pinned.json.response.fingerprint).toBe(line2.fingerprint);
    const stored = fs.readFileSync(path.join(desk.dataDirectory, 'fleet.json'), 'utf8');
    expect(stored).toContain(line1.fingerprint);
    expect(JSON.stringify((await call('GET', '/v1/fleet')).json)).not.toContain(line1.token);
  });

  it('lists the desk first and shows each agent polled: running, its version and revision', async () => {
    const { json } = await call('GET', '/v1/fleet');
    expect(json.response.agents.map((a: { name: string; self: boolean }) => (a.self ? 'self' : a.name))).toEqual(['self', 'line-1', 'line-2']);
    const { row } = await waitForRow('line-1', (r) => r.last_seen !== null);
    expect(row).toMatchObject({ reachable: true, state: 'running', health: 'ok', error: null, version: json.response.agents[0].version });
  });
});

describe('every page\'s requests through the proxy', () => {
  const base = '/v1/fleet/agents/line-1/api';
  const config = { data_receiver: [], transforms: [], data_transmit: [] };

  it('Status: status, stop and start reach line-1, not the desk', async () => {
    expect((await call('GET', `${base}/v1/status`)).json.response.agent.status).toBe('running');
    expect((await call('POST', `${base}/v1/agent/stop`)).json.response).toBe('stopped');
    expect((await call('GET', '/v1/status')).json.response.agent.status).toBe('running');
    await waitForRow('line-1', (r) => r.state === 'stopped');
    expect((await call('POST', `${base}/v1/agent/start`)).json.response).toBe('running');
  });

  it('Configuration: read, validate, save with If-Match, history', async () => {
    const saved = await call('POST', `${base}/v1/config`, config);
    expect(saved.status, JSON.stringify(saved.json)).toBe(200);
    const revision = saved.json.meta.revision;
    const read = await call('GET', `${base}/v1/config`);
    expect(read.json.meta.revision).toBe(revision);
    expect(read.headers.get('etag')).toBe(`"${revision}"`);
    expect((await call('POST', `${base}/v1/config/validate`, config)).json.response.status).toBeDefined();
    expect((await call('POST', `${base}/v1/config`, config, { 'If-Match': `"${revision - 1}"` })).status).toBe(409);
    expect((await call('GET', `${base}/v1/config/history`)).json.response[0].revision).toBe(revision);
    // The desk's own configuration was not touched.
    expect((await call('GET', '/v1/config')).json.meta.revision).toBeNull();
    await waitForRow('line-1', (r) => r.revision === revision);
  });

  it('Streams, Logs and KPIs', async () => {
    expect((await call('GET', `${base}/v1/streams`)).json.response).toEqual([]);
    expect((await call('GET', `${base}/v1/history?minutes=60`)).json.success).toBe(true);
    const log = await call('GET', `${base}/v1/log/stream/agent_web.log?lines=50`);
    // line-1's own web log: it lists the requests the desk forwarded to it.
    expect(log.json.response.join('\n')).toContain('/v1/config');
    expect((await call('GET', `${base}/v1/kpis`)).json.success).toBe(true);
    expect((await call('POST', `${base}/v1/kpis/validate`, { name: 'x' })).status).toBeLessThan(500);
  });
});

describe('roles through the proxy', () => {
  const base = '/v1/fleet/agents/line-2/api';

  it('a viewer reads line-2 but cannot stop it; an operator stops it but cannot save its configuration', async () => {
    expect((await call('GET', `${base}/v1/status`, undefined, as('viewer'))).status).toBe(200);
    const refused = await call('POST', `${base}/v1/agent/stop`, undefined, as('viewer'));
    expect(refused.status).toBe(403);
    expect(refused.json.error.text).toContain('operator');
    expect((await call('GET', `${base}/v1/status`)).json.response.agent.status).toBe('running');
    expect((await call('POST', `${base}/v1/agent/stop`, undefined, as('operator'))).json.response).toBe('stopped');
    expect((await call('POST', `${base}/v1/config`, { data_receiver: [], transforms: [], data_transmit: [] }, as('operator'))).status).toBe(403);
    expect((await call('POST', `${base}/v1/agent/start`, undefined, as('operator'))).json.response).toBe('running');
    expect((await call('POST', '/v1/fleet/agents/line-2/pin', { fingerprint: line2.fingerprint }, as('operator'))).status).toBe(403);
  });
});

describe('a killed agent and a changed certificate', () => {
  it('shows a killed agent unreachable within 15 s, and the proxy says so', async () => {
    await end(line2.child, 'SIGKILL');
    const { row, ms } = await waitForRow('line-2', (r) => !r.reachable);
    expect(ms).toBeLessThan(15_000);
    expect(row.error).toMatch(/^unreachable since /);
    const forwarded = await call('GET', '/v1/fleet/agents/line-2/api/v1/status');
    expect(forwarded.status).toBe(502);
    expect(forwarded.json.error.text).toContain('line-2');
  });

  it('does not talk to line-1 with a new certificate until an admin re-pins it', async () => {
    await end(line1.child);
    fs.rmSync(path.join(line1.dataDirectory, 'tls'), { recursive: true, force: true });
    const renewed = await serve(line1.dataDirectory, ['--tls'], line1.port);
    const before = line1;
    line1 = renewed;
    expect(renewed.fingerprint).not.toBe(before.fingerprint);
    const { row } = await waitForRow('line-1', (r) => r.error === 'certificate changed');
    expect(row.presented_fingerprint).toBe(renewed.fingerprint);
    const stops = () => fs.readFileSync(path.join(line1.dataDirectory, 'logs', 'agent_web.log'), 'utf8').split('\n').filter((l) => l.includes('/v1/agent/stop')).length;
    const stopsBefore = stops();
    const forwarded = await call('POST', '/v1/fleet/agents/line-1/api/v1/agent/stop');
    expect(forwarded.status).toBe(502);
    expect(forwarded.json.error.text).toContain('certificate changed');
    // Nothing reached it: its web log has no new request, and it still runs.
    expect(stops()).toBe(stopsBefore);
    const repinned = await call('POST', '/v1/fleet/agents/line-1/pin', { fingerprint: renewed.fingerprint });
    expect(repinned.status, JSON.stringify(repinned.json)).toBe(200);
    expect(repinned.json.response).toMatchObject({ fingerprint: renewed.fingerprint, reachable: true, error: null });
    expect((await call('GET', '/v1/fleet/agents/line-1/api/v1/status')).json.response.agent.status).toBe('running');
  });
});
