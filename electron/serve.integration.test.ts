import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { specExampleConfiguration } from '../shared/testing/config-fixtures.js';
import { waitFor } from './testing/file-plant.js';
import { SERVE_SCRIPT, type ServeProcess, serveProcess } from './testing/serve-process.js';
import { tempDirectory } from './testing/test-host.js';

const children: ServeProcess[] = [];

afterEach(async () => {
  for (const child of children.splice(0)) await child.crash();
});

async function serve(args: string[], env: NodeJS.ProcessEnv = {}): Promise<ServeProcess> {
  const started = await serveProcess(args, env);
  children.push(started);
  return started;
}

const api = (started: ServeProcess, method: string, p: string, body?: unknown) => started.call(method, p, body);

describe('npm run serve (headless entry)', () => {
  it('prints exactly one console line with a token it stores 0600, and serves the API', async () => {
    const dataDirectory = tempDirectory();
    const started = await serve(['--data-dir', dataDirectory, '--port', '0']);
    // Once it has served a request its start-up is over: still that one line.
    expect((await api(started, 'GET', '/v1/status')).json.response.agent.status).toBe('running');
    expect(started.stdout().trim().split('\n')).toHaveLength(1);
    const tokenFile = path.join(dataDirectory, 'api-token');
    expect(fs.readFileSync(tokenFile, 'utf8').trim()).toBe(started.token);
    if (process.platform !== 'win32') expect(fs.statSync(tokenFile).mode & 0o777).toBe(0o600);
    started.child.kill('SIGTERM');
    const code = await new Promise((r) => started.child.on('exit', r));
    expect(code).toBe(0);
    const again = await serve(['--data-dir', dataDirectory, '--port', '0']);
    expect(again.token).toBe(started.token);
  });

  it('an exception nobody caught ends the process with exit code 1, and says why in the web log and on stderr', async () => {
    const dataDirectory = tempDirectory();
    // A preload that throws from a bare callback when asked (SIGUSR2): as a bug in a timer would.
    const preload = path.join(tempDirectory(), 'throw-on-usr2.cjs');
    fs.writeFileSync(preload, "process.on('SIGUSR2', () => setImmediate(() => { throw new Error('thrown where nobody catches'); }));\n");
    const started = await serve(['--data-dir', dataDirectory, '--port', '0'], { NODE_OPTIONS: `--require ${preload}` });
    let stderr = '';
    started.child.stderr!.on('data', (d) => (stderr += d));
    const exited = new Promise((r) => started.child.on('exit', r));
    started.child.kill('SIGUSR2');
    expect(await exited).toBe(1);
    expect(stderr).toContain('Tributary stopped on an unexpected error: Error: thrown where nobody catches');
    const webLog = fs.readFileSync(path.join(dataDirectory, 'logs', 'agent_web.log'), 'utf8');
    expect(webLog).toMatch(/ \| ERROR \| Tributary stopped on an unexpected error: Error: thrown where nobody catches/);
  });

  it('takes the token from TRIBUTARY_API_TOKEN when set', async () => {
    const started = await serve(['--data-dir', tempDirectory(), '--port', '0'], { TRIBUTARY_API_TOKEN: 'from-the-environment-42' });
    expect(started.token).toBe('from-the-environment-42');
  });

  it('refuses a TRIBUTARY_API_TOKEN shorter than 16 characters with a clear message and exit code 2', async () => {
    const child = spawn(process.execPath, [SERVE_SCRIPT, '--data-dir', tempDirectory(), '--port', '0'], { env: { ...process.env, TRIBUTARY_API_TOKEN: 'x' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    const code = await new Promise((r) => child.on('exit', r));
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err.trim()).toMatch(/^Tributary: TRIBUTARY_API_TOKEN is 1 character\(s\) long; use at least 16/);
    expect(err).not.toMatch(/\n\s+at /); // no stack trace
  });

  it('seeds a valid demo configuration with --demo', async () => {
    const started = await serve(['--data-dir', tempDirectory(), '--port', '0', '--demo']);
    const config = await api(started, 'GET', '/v1/config');
    expect(config.json.response.data_receiver.length).toBeGreaterThan(0);
    const validation = await api(started, 'POST', '/v1/config/validate', config.json.response);
    // The running demo's own configuration: saving it again would keep every service running.
    expect(validation.json.response).toEqual({
      status: 'passed',
      violations: [],
      changes: { start: [], restart: [], stop: [], keep: ['transmit:archive', 'transform:rename_columns', 'receiver:demo_plant_files', 'receiver:demo_plant_opcua', 'receiver:demo_plant_modbus'] },
    });
    expect((await api(started, 'GET', '/v1/streams')).json.response.length).toBeGreaterThan(0);
  });

  it('runs the demo line end to end: machine rows land in <data-dir>/outbox as CSV', async () => {
    const dataDirectory = tempDirectory();
    const started = await serve(['--data-dir', dataDirectory, '--port', '0', '--demo']);
    const file = path.join(dataDirectory, 'outbox', 'Press_1__cycle.csv');
    const press = await waitFor(() => {
      const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
      return text.split('\n').length > 3 && text;
    }, 20_000, 'press rows in the outbox');
    const [header, first] = press.split('\n');
    expect(header).toBe('timestamp,capturetime,record_id,time,part_id,cycle_time_s,force_kN,ok');
    expect(first).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.000000Z,/);
    const status = await api(started, 'GET', '/v1/status');
    expect(status.json.response.agent.services).toMatchObject({ 'transmit:archive': { status: 'running' }, 'transform:rename_columns': { status: 'running' }, 'receiver:demo_plant_files': { status: 'running' } });
    expect(status.json.response.last_data_transmit.archive.records_sent).toBeGreaterThan(0);
  }, 30_000);

  it('runs the simulated OPC UA plant of the demo: both machines land in the outbox, the receiver runs', async () => {
    const dataDirectory = tempDirectory();
    const started = await serve(['--data-dir', dataDirectory, '--port', '0', '--demo']);
    const rows = (asset: string) => {
      const file = path.join(dataDirectory, 'outbox', `${asset}__process.csv`);
      return fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim().split('\n') : [];
    };
    await waitFor(() => rows('Extruder_1').length >= 3 && rows('Molder_2').length >= 3, 40_000, 'rows of both machines in the outbox');
    const [header, first] = rows('Extruder_1');
    expect(header).toBe('timestamp,capturetime,record_id,temperature_C,temperature_C_status,speed_rpm,speed_rpm_status,state,state_status,part_counter,part_counter_status');
    expect(first).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z,.*,Good,.*,Good,(Running|Idle|Fault),Good,\d+,Good$/);
    expect(rows('Molder_2').length).toBeGreaterThanOrEqual(3);
    const status = await api(started, 'GET', '/v1/status');
    expect(status.json.response.agent.services['receiver:demo_plant_opcua']).toEqual({ status: 'running', health: 'ok', reason: null });
    const browse = await api(started, 'GET', `/v1/opcua/browse?receiver=demo_plant_opcua&node=${encodeURIComponent('ns=2;s=Extruder_1')}`);
    expect(browse.json.response.map((n: { browse_name: string }) => n.browse_name).sort()).toEqual(['PartCounter', 'Speed', 'State', 'Temperature']);
  }, 60_000);

  it('runs the simulated Modbus TCP compressor of the demo: its records land in the outbox, the receiver runs', async () => {
    const dataDirectory = tempDirectory();
    const started = await serve(['--data-dir', dataDirectory, '--port', '0', '--demo']);
    const file = path.join(dataDirectory, 'outbox', 'Compressor_3__process.csv');
    const rows = () => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim().split('\n') : []);
    await waitFor(() => rows().length >= 3, 30_000, 'compressor rows in the outbox');
    const [header, first] = rows();
    expect(header).toBe('timestamp,capturetime,record_id,pressure_bar,motor_temperature_C,alarm,model,running_s,energy_kWh,running');
    // Pressure about 7.5 bar (6.1 unloaded), the model text, the counters read with their CDAB word order.
    expect(first).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z,[^,]+,[^,]+,[67]\.\d+,\d+(\.\d+)?,(true|false),GA37,\d+,15\d\d\.\d+,(true|false)$/);
    const status = await api(started, 'GET', '/v1/status');
    expect(status.json.response.agent.services['receiver:demo_plant_modbus']).toEqual({ status: 'running', health: 'ok', reason: null });
  }, 60_000);

  it('starts a fresh demo clean: the OPC UA plant answers the first attempt, no warning, no unknown service', async () => {
    const dataDirectory = tempDirectory();
    const started = await serve(['--data-dir', dataDirectory, '--port', '0', '--demo']);
    const log = () => fs.readFileSync(path.join(dataDirectory, 'logs', 'agent_core.log'), 'utf8');
    const seen = new Set<string>();
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline && !log().includes('Connected to opc.tcp://')) {
      const services = (await api(started, 'GET', '/v1/status')).json.response.agent.services as Record<string, { status: string }>;
      for (const [id, service] of Object.entries(services)) seen.add(`${id}=${service.status}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(log()).toContain('Connected to opc.tcp://');
    expect([...seen].filter((entry) => !entry.endsWith('=running'))).toEqual([]);
    expect(log().split('\n').filter((line) => / \| (WARNING|ERROR) \| /.test(line))).toEqual([]);
    expect(log()).not.toContain('CVE-');
    // The first thing support asks: what PC is this? One line, once.
    await waitFor(() => log().includes(' | Machine: '), 30_000, 'the machine line in the core log');
    expect(log().split('\n').filter((line) => line.includes(' | Machine: '))).toEqual([expect.stringContaining(`(${os.arch()})`)]);
  }, 60_000);

  it('refuses an unknown option with usage on stderr and exit code 2', async () => {
    const child = spawn(process.execPath, [SERVE_SCRIPT, '--colour', 'blue'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    const code = await new Promise((r) => child.on('exit', r));
    expect(code).toBe(2);
    expect(err).toMatch(/--colour/);
    expect(err).toMatch(/--data-dir DIR/);
  });

  it('keeps a whole configuration through kill -9 at any moment of a save', async () => {
    const dataDirectory = tempDirectory();
    const posted = new Set<string>();
    let everSaved = false;
    for (let round = 0; round < 8; round += 1) {
      const started = await serve(['--data-dir', dataDirectory, '--port', '0']);
      const saves: Promise<unknown>[] = [];
      for (let i = 0; i < 20; i += 1) {
        const config = specExampleConfiguration();
        config.data_receiver[0]!.poll_interval = round * 100 + i + 1;
        // Make the file large enough that a write takes measurable time.
        config.data_receiver[0]!.streams.push(...Array.from({ length: 400 }, (_, k) => ({ asset: `A${k}`, stream_type: `s${i}`, file_filter: [`a${k}_*.csv`] })));
        posted.add(JSON.stringify(config));
        saves.push(api(started, 'POST', '/v1/config', config).catch(() => undefined));
      }
      // Killed at a random moment of the saves. Every other round waits for the first answer first,
      // so that a loaded machine (slow start) still has rounds killed while later saves are written.
      if (round % 2 === 1) await saves[0];
      await new Promise((r) => setTimeout(r, (round % 2 === 1 ? 0 : 30) + Math.random() * 400));
      started.child.kill('SIGKILL');
      await new Promise((r) => started.child.on('exit', r));
      await Promise.all(saves);
      const file = path.join(dataDirectory, 'conf.d', 'tributary.json');
      if (!fs.existsSync(file)) {
        expect(everSaved, 'a saved configuration disappeared').toBe(false);
        continue;
      }
      everSaved = true;
      const stored = JSON.parse(fs.readFileSync(file, 'utf8')); // a torn file would throw here
      expect(posted.has(JSON.stringify(stored))).toBe(true);
    }
    expect(everSaved, 'no round got as far as a save; the test proved nothing').toBe(true);
    const started = await serve(['--data-dir', dataDirectory, '--port', '0']);
    const read = await api(started, 'GET', '/v1/config');
    expect(read.json.success).toBe(true);
    expect(fs.readdirSync(path.join(dataDirectory, 'conf.d')).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  }, 60_000);
});
