/**
 * The Linux package from end to end (issue 55), as root on this Debian machine: built once by
 * `npm run package:linux` (from the dist/ the suite already built), installed with dpkg inside a
 * network namespace that has no network, its service command run as systemd would run it (user
 * tributary, /etc/default/tributary, the system Node hidden), a CSV folder read and uploaded to the
 * ingest server, a token made with `tributary token create` accepted by the running service, an
 * upgrade to a higher version that keeps configuration and tokens, then remove and purge.
 * Not here: a systemd-booted machine (this is a container: postinst takes its no-systemd path).
 */
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type IngestServer, startIngestServer } from '../electron/ingest/ingest-server.js';
import { PRESS_HEADER, pressRows, waitFor } from '../electron/testing/file-plant.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const isRoot = process.getuid?.() === 0;
const hasTools = ['dpkg-deb', 'unshare', 'runuser', 'systemd-analyze'].every((tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0);
const version = (JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string }).version;
const KEY_ID = 'factory_package@tributary.local';
const API_KEY = 'a-key-for-the-package-test';
const DATA = '/var/lib/tributary';

const sh = (command: string, options: { allowFailure?: boolean } = {}) => {
  const result = spawnSync('sh', ['-c', command], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (result.status !== 0 && !options.allowFailure) throw new Error(`${command} failed (${result.status}): ${result.stdout}${result.stderr}`);
  return { status: result.status, out: `${result.stdout}${result.stderr}` };
};
const digest = (file: string) => crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');

let work: string;
let debs: { first: string; second: string };
let ingest: IngestServer | undefined;
let agent: ChildProcess | undefined;

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** The unit's ExecStart with $TRIBUTARY_ARGS split as systemd splits it, and its environment. */
function unitCommand(args: string): { argv: string[]; env: Record<string, string> } {
  const unit = fs.readFileSync('/lib/systemd/system/tributary.service', 'utf8');
  const line = /^ExecStart=(.+)$/m.exec(unit)![1]!;
  const argv = line.split(/\s+/).flatMap((word) => (word === '$TRIBUTARY_ARGS' ? args.split(/\s+/).filter(Boolean) : [word]));
  const env: Record<string, string> = { PATH: '/usr/sbin:/usr/bin:/sbin:/bin' };
  for (const [, name, value] of unit.matchAll(/^Environment=(\w+)=(.*)$/gm)) env[name!] = value!;
  expect(unit).toMatch(/^User=tributary$/m);
  expect(unit).toMatch(/^EnvironmentFile=-\/etc\/default\/tributary$/m);
  return { argv, env };
}

/** Runs the service command as user tributary in a mount namespace where /usr/bin/node is not a program. */
function startService(args: string): Promise<{ port: number; token: string }> {
  const { argv, env } = unitCommand(args);
  const quoted = argv.map((word) => `'${word.replace(/'/g, `'\\''`)}'`).join(' ');
  const environment = Object.entries(env).map(([k, v]) => `${k}='${v}'`).join(' ');
  const script = `mount --bind /dev/null "$(command -v node || echo /usr/bin/node)" && ! node --version 2>/dev/null && exec runuser -u tributary -- env -i ${environment} ${quoted}`;
  const child = spawn('unshare', ['-m', 'sh', '-c', script], { stdio: ['ignore', 'pipe', 'pipe'] });
  agent = child;
  let out = '';
  let err = '';
  child.stderr!.on('data', (d) => (err += d));
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      out += d;
      const match = /Tributary console: http:\/\/127\.0\.0\.1:(\d+)\/\?token=(\S+)/.exec(out);
      if (match) resolve({ port: Number(match[1]), token: match[2]! });
    });
    child.on('exit', (code) => reject(new Error(`the service command exited with ${code}: ${err}`)));
  });
}

async function stopService(): Promise<void> {
  const child = agent;
  agent = undefined;
  if (!child || child.exitCode !== null) return;
  const gone = new Promise((resolve) => child.once('exit', resolve));
  sh('pkill -TERM -u tributary -f "cli.js serve"', { allowFailure: true });
  await Promise.race([gone, new Promise((resolve) => setTimeout(resolve, 20_000))]);
  child.kill('SIGKILL');
}

const call = async (port: number, token: string, method: string, route: string, body?: unknown) => {
  const reply = await fetch(`http://127.0.0.1:${port}${route}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: reply.status, json: (await reply.json()) as any };
};

describe.skipIf(!isRoot || !hasTools)('the Linux package', () => {
  beforeAll(() => {
    // A machine as it was before any install (an earlier run cut short leaves files behind).
    sh('dpkg -P tributary-agent', { allowFailure: true });
    fs.rmSync('/etc/default/tributary', { force: true });
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-package-'));
    fs.chmodSync(work, 0o755);
    // Built once from the suite's dist/ (npm run build ran before the tests).
    execFileSync(process.execPath, [path.join(root, 'scripts', 'package-linux.mjs'), '--out', work, '--no-build'], { cwd: root, stdio: 'pipe' });
    const arch = sh('dpkg --print-architecture').out.trim();
    const first = path.join(work, `tributary-agent_${version}_${arch}.deb`);
    // The upgrade: the same files under a higher version, repacked without compression (seconds).
    const tree = path.join(work, 'next');
    sh(`dpkg-deb -R '${first}' '${tree}' && sed -i 's/^Version: .*/Version: ${version}+1/' '${tree}/DEBIAN/control'`);
    const shipped = path.join(tree, 'usr/lib/tributary/app/package.json');
    fs.writeFileSync(shipped, fs.readFileSync(shipped, 'utf8').replace(`"version": "${version}"`, `"version": "${version}+1"`));
    const second = path.join(work, `tributary-agent_${version}+1_${arch}.deb`);
    sh(`dpkg-deb --root-owner-group -Znone --build '${tree}' '${second}' && rm -rf '${tree}'`);
    debs = { first, second };
  }, 300_000);

  afterAll(async () => {
    await stopService();
    await ingest?.close();
    sh('dpkg -P tributary-agent', { allowFailure: true });
    fs.rmSync('/etc/default/tributary', { force: true });
    if (work) fs.rmSync(work, { recursive: true, force: true });
  }, 60_000);

  it('names no nodejs, holds no dev dependency or test code, and installs without a network', () => {
    const info = sh(`dpkg-deb -f '${debs.first}' Package Version Depends`).out;
    expect(info).toContain('Package: tributary-agent');
    expect(info).not.toMatch(/nodejs/);
    const files = sh(`dpkg-deb -c '${debs.first}'`).out;
    expect(files).toMatch(/\.\/usr\/lib\/tributary\/node\n/);
    expect(files).toMatch(/\.\/usr\/lib\/tributary\/app\/node_modules\/better-sqlite3\//);
    for (const devOnly of ['vitest', 'typescript', 'electron-builder', '@playwright', 'fast-check', 'monaco-editor']) expect(files).not.toContain(`/node_modules/${devOnly}/`);
    expect(files).not.toMatch(/app\/dist\/.*(\/testing\/|\.test\.js)/);
    expect(sh('getent passwd tributary', { allowFailure: true }).status).not.toBe(0); // postinst makes it

    // No network in here: only an unconfigured loopback.
    const installed = sh(`unshare --net sh -c "! ip -o link show | grep -v ' lo:' | grep -q . && dpkg -i '${debs.first}'"`);
    expect(installed.status).toBe(0);
    expect(sh('getent passwd tributary').out).toMatch(/^tributary:x:\d+:\d+:[^:]*:\/var\/lib\/tributary:\/usr\/sbin\/nologin$/m);
    const data = fs.statSync(DATA);
    expect((data.mode & 0o777).toString(8)).toBe('750');
    expect(data.uid).toBe(Number(sh('id -u tributary').out.trim()));
    expect(sh('tributary --version').out.trim()).toBe(`tributary ${version}`);
    const verify = sh('systemd-analyze verify /lib/systemd/system/tributary.service', { allowFailure: true });
    expect(verify.out.trim(), verify.out).toBe('');
    expect(verify.status).toBe(0);
  }, 120_000);

  it('runs as the unit runs it, reads a folder and uploads it, and takes a token made in a shell', async () => {
    ingest = await startIngestServer({ keys: { [KEY_ID]: API_KEY } });
    const port = await freePort();
    fs.writeFileSync('/etc/default/tributary', `TRIBUTARY_ARGS="--port ${port}"\n`);
    const service = await startService(`--port ${port}`);
    expect(service.token).toBe(fs.readFileSync(path.join(DATA, 'api-token'), 'utf8').trim());
    const drop = path.join(work, 'drop');
    fs.mkdirSync(drop, { mode: 0o755 });
    const config = {
      sight_machine_cloud: { base_url: ingest.url, api_key: API_KEY, api_key_id: KEY_ID },
      data_receiver: [{
        data_receiver_name: 'line', protocol: 'localfile', poll_interval: 1, connections: [{ root_path: drop }],
        streams: [{ asset: 'Press_1', stream_type: 'cycle', file_filter: ['press_*.csv'] }],
        parsers: [{ parser_name: 'csv', parser_type: 'spreadsheet', filter_stream: ['*'], options: { localtz: 'UTC', parse: { separator: ',', header: 0, parse_timestamps: [{ field_name: 'time', format: '%Y-%m-%d %H:%M:%S' }] } } }],
      }],
      data_transmit: [{ transmit_name: 'cloud', poll_interval: 1 }],
    };
    const saved = await call(service.port, service.token, 'POST', '/v1/config', config);
    expect(saved.json.success, JSON.stringify(saved.json)).toBe(true);
    fs.writeFileSync(path.join(drop, 'press_1.csv'), PRESS_HEADER + pressRows(0, 5), { mode: 0o644 });
    await waitFor(() => ingest!.records().length >= 5, 60_000, 'the 5 rows at the ingest server');
    expect(ingest.records().map((r) => (r.fieldvalues as { part: number }).part).sort()).toEqual([0, 1, 2, 3, 4]);

    const made = sh('tributary token create desk-7 --role viewer');
    const viewer = made.out.split('\n')[0]!.trim();
    expect(viewer).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const status = await waitFor(async () => {
      const reply = await call(service.port, viewer, 'GET', '/v1/status');
      return reply.status === 200 && reply;
    }, 10_000, 'the running service to accept the new token');
    expect(status.status).toBe(200);
    expect((await call(service.port, viewer, 'POST', '/v1/agent/stop')).status).toBe(403);
    expect(sh(`stat -c %U ${DATA}/api-tokens.json`).out.trim()).toBe('tributary');

    // config check: the API's validation, violations with their json_path.
    const bad = path.join(work, 'bad.json');
    fs.writeFileSync(bad, JSON.stringify({ data_receiver: [{ data_receiver_name: 'x', protocol: 'localfile', connections: [], streams: [], parsers: [] }], data_transmit: [] }));
    const checked = sh(`tributary config check '${bad}'`, { allowFailure: true });
    expect(checked.status).toBe(1);
    expect(checked.out).toMatch(/error\s+\["data_receiver",0,"connections"\]/);
    await stopService();
  }, 180_000);

  it('keeps configuration, tokens and records through an upgrade, and its data through remove but not purge', async () => {
    const configFile = path.join(DATA, 'conf.d', 'tributary.json');
    const store = path.join(DATA, 'state', 'agent.db');
    const before = { config: digest(configFile), tokens: digest(path.join(DATA, 'api-tokens.json')), token: digest(path.join(DATA, 'api-token')), store: digest(store) };
    fs.writeFileSync('/etc/default/tributary', 'TRIBUTARY_ARGS="--port 4977"\n');
    expect(sh(`unshare --net dpkg -i '${debs.second}'`).status).toBe(0);
    expect(sh('tributary --version').out.trim()).toBe(`tributary ${version}+1`);
    expect(digest(configFile)).toBe(before.config);
    expect(digest(path.join(DATA, 'api-tokens.json'))).toBe(before.tokens);
    expect(digest(path.join(DATA, 'api-token'))).toBe(before.token);
    expect(digest(store)).toBe(before.store); // progress and outbox
    // The edited conffile is kept.
    expect(fs.readFileSync('/etc/default/tributary', 'utf8')).toContain('--port 4977');
    // The upgraded service starts on the kept data: the saved configuration, the same token.
    const service = await startService('--port 0');
    expect(service.token).toBe(fs.readFileSync(path.join(DATA, 'api-token'), 'utf8').trim());
    const config = await call(service.port, service.token, 'GET', '/v1/config');
    expect(config.json.response.data_receiver[0].data_receiver_name).toBe('line');
    await stopService();

    expect(sh('dpkg -r tributary-agent').status).toBe(0);
    expect(fs.existsSync('/usr/bin/tributary')).toBe(false);
    expect(fs.existsSync(configFile)).toBe(true);
    expect(sh('dpkg -P tributary-agent').status).toBe(0);
    expect(fs.existsSync(DATA)).toBe(false);
    expect(sh('getent passwd tributary', { allowFailure: true }).status).not.toBe(0);
  }, 180_000);
});
