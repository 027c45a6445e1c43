/**
 * Fault suite: the data directory is off limits to receivers and to preview (docs/security.md,
 * "Paths"). A preview whose localfile receiver pointed at <data-dir>/conf.d answered every saved
 * secret, conf.d/history the old ones. Folders are judged by their real path (links, `..`, relative
 * paths), at validation and again when a receiver reads, and the agent stays up and answers.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { filePlant, waitFor } from '../testing/file-plant.js';
import { type TestServer, startTestServer, tempDirectory } from '../testing/test-host.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const OLD_KEY = 'old-key-5f3a9c1e7b2d4a6f';
const NEW_KEY = 'new-key-8e1b7c3d9a5f2e4b';
const cloud = (key: string) => ({ data_receiver: [], transforms: [], data_transmit: [{ transmit_name: 'cloud', transmit_type: 'remotedatapost', base_url: 'http://127.0.0.1:1', API_key: key, API_key_ID: 'edge-1' }] });

/** A receiver reading every line of `tributary.json` below `folder` as a record (a separator that never occurs). */
const reader = (folder: string, extra: Record<string, unknown> = {}) => ({
  data_receiver: [
    {
      data_receiver_name: 'probe',
      protocol: 'localfile',
      connections: [{ root_path: folder }],
      streams: [{ asset: 'Probe', stream_type: 'lines', file_filter: ['tributary*.json'] }],
      parsers: [{ parser_name: 'lines', parser_type: 'spreadsheet', options: { parse: { separator: '\u0001', header: null, names: ['line'] } } }],
      ...extra,
    },
  ],
  transforms: [],
  data_transmit: [],
});

async function statusTime(): Promise<number> {
  const started = performance.now();
  expect((await server!.call('GET', '/v1/status')).status).toBe(200);
  return performance.now() - started;
}

const ROOT_PATH = ['data_receiver', 0, 'connections', 0, 'root_path'];

describe('the data directory is off limits to receivers and preview', () => {
  it('preview, validate and save refuse conf.d, its history, a link to it, a relative path with .., the data directory and a folder above it; no secret in any answer', async () => {
    server = await startTestServer();
    const data = server.dataDirectory;
    expect((await server.call('POST', '/v1/config', cloud(OLD_KEY))).status).toBe(200);
    expect((await server.call('POST', '/v1/config', cloud(NEW_KEY))).status).toBe(200);
    expect(fs.readdirSync(path.join(data, 'conf.d', 'history')).length).toBeGreaterThan(0);

    // Control: the same preview of a copy outside the data directory shows the key, so the refusals below are what protects it.
    const copy = tempDirectory('tributary-copy-');
    fs.copyFileSync(path.join(data, 'conf.d', 'tributary.json'), path.join(copy, 'tributary.json'));
    const control = await server.call('POST', '/v1/config/preview', { configuration: reader(copy), rows: 100 });
    expect(control.status).toBe(200);
    expect(JSON.stringify(control.json)).toContain(NEW_KEY);

    const link = path.join(tempDirectory('tributary-link-'), 'machines');
    fs.symlinkSync(path.join(data, 'conf.d'), link);
    const attacks = [
      path.join(data, 'conf.d'),
      path.join(data, 'conf.d', 'history'),
      link,
      path.relative(process.cwd(), path.join(data, 'logs', '..', 'conf.d')),
      `${copy}/../${path.basename(data)}/conf.d`,
      data,
      path.dirname(data),
    ];
    for (const folder of attacks) {
      for (const route of ['/v1/config/preview', '/v1/config/validate', '/v1/config']) {
        const body = route === '/v1/config/preview' ? { configuration: reader(folder), rows: 100 } : reader(folder);
        const { status, json } = await server.call('POST', route, body);
        expect(status, `${route} ${folder}`).toBe(route === '/v1/config/validate' ? 200 : 422);
        const text = JSON.stringify(json);
        expect(text).not.toContain(NEW_KEY);
        expect(text).not.toContain(OLD_KEY);
        expect(json.response.violations, `${route} ${folder}`).toContainEqual(expect.objectContaining({ json_path: ROOT_PATH, level: 'error', description: expect.stringContaining('receivers and preview never read there') }));
      }
    }
    // The link and the relative path are named with where they really lead.
    const viaLink = (await server.call('POST', '/v1/config/validate', reader(link))).json.response.violations.find((v: { level: string }) => v.level === 'error').description;
    expect(viaLink).toContain(`its real path is ${fs.realpathSync(path.join(data, 'conf.d'))}`);
    expect(viaLink).toContain("inside the agent's own conf.d folder");
    // A file a receiver reads (the mqtt ca_file) follows the same rule.
    const mqtt = { data_receiver: [{ data_receiver_name: 'machines', protocol: 'mqtt', connections: [{ host: '127.0.0.1', port: 1, tls: true, ca_file: path.join(link, 'tributary.json') }], streams: [{ asset: 'Press_1', stream_type: 'cycle', topic: 'plant/#' }] }], transforms: [], data_transmit: [] };
    expect((await server.call('POST', '/v1/config/validate', mqtt)).json.response.violations).toContainEqual(expect.objectContaining({ json_path: ['data_receiver', 0, 'connections', 0, 'ca_file'], level: 'error', description: expect.stringContaining('receivers and preview never read there') }));
    // A folder of the data directory that is not the agent's own (the demo's drop folder, csv output) may be read.
    fs.mkdirSync(path.join(data, 'drop'));
    expect((await server.call('POST', '/v1/config/preview', { configuration: reader(path.join(data, 'drop')) })).status).toBe(200);
    expect(await statusTime()).toBeLessThan(1000);
    // The saved configuration is the last good one.
    expect(JSON.stringify(JSON.parse(fs.readFileSync(path.join(data, 'conf.d', 'tributary.json'), 'utf8')))).toContain(NEW_KEY);
  });

  it('a link changed after the save: the receiver reads nothing from conf.d, says so, and reads again once it points back', async () => {
    const plant = filePlant();
    const link = path.join(plant.root, 'machines');
    fs.symlinkSync(plant.drop, link);
    const config = structuredClone(plant.config);
    config.data_receiver[0]!.connections = [{ root_path: link }];
    config.data_receiver[0]!.streams = [{ asset: 'Press_1', stream_type: 'cycle', file_filter: ['*.csv', '*.json'] }] as never;
    server = await startTestServer();
    expect((await server.call('POST', '/v1/config', config)).status).toBe(200);
    plant.write('press_1.csv', 'time,part,cyc_t\n2026-01-05 06:00:00,P1,29\n');
    await waitFor(() => plant.delivered('Press_1', 'cycle').length === 1, 20_000, 'the first file');

    fs.unlinkSync(link);
    fs.symlinkSync(path.join(server.dataDirectory, 'conf.d'), link);
    const marker = await waitFor(async () => (await server!.call('GET', '/v1/streams')).json.response[0].markers.find((m: { category: string }) => m.category === 'source_refused'), 20_000, 'a source_refused marker');
    expect(marker).toMatchObject({ level: 'error', message: expect.stringContaining("inside the agent's own conf.d folder") });
    expect(await statusTime()).toBeLessThan(1000);
    expect(plant.delivered('Press_1', 'cycle')).toHaveLength(1);

    fs.unlinkSync(link);
    fs.symlinkSync(plant.drop, link);
    plant.write('press_2.csv', 'time,part,cyc_t\n2026-01-05 06:00:01,P2,30\n');
    await waitFor(() => plant.delivered('Press_1', 'cycle').length === 2, 20_000, 'the file after the link points back');
    await waitFor(async () => !(await server!.call('GET', '/v1/streams')).json.response[0].markers.some((m: { category: string }) => m.category === 'source_refused'), 20_000, 'the marker to go');
    expect(fs.readdirSync(plant.outbox).join('\n')).not.toMatch(/Probe|tributary/);
  });
});

describe.runIf(fs.existsSync('/dev/shm'))('delete_completed on real paths', () => {
  it('refuses a relative path and a link into a system folder at validation, and deletes nothing there when a link is changed after the save', async () => {
    const system = fs.mkdtempSync('/dev/shm/tributary-fault-');
    try {
      fs.writeFileSync(path.join(system, 'press_9.csv'), 'time,part,cyc_t\n2026-01-05 06:00:00,P9,29\n');
      const plant = filePlant({ deleteCompleted: true });
      const link = path.join(plant.root, 'machines');
      fs.symlinkSync(system, link);
      server = await startTestServer();
      for (const folder of [link, path.relative(process.cwd(), system)]) {
        const config = structuredClone(plant.config);
        config.data_receiver[0]!.connections = [{ root_path: folder }];
        const { status, json } = await server.call('POST', '/v1/config', config);
        expect(status, folder).toBe(422);
        expect(json.response.violations).toContainEqual(expect.objectContaining({ json_path: ['data_receiver', 0, 'delete_completed'], level: 'error', description: expect.stringContaining(`real path ${system} is a folder of the operating system`) }));
      }

      fs.unlinkSync(link);
      fs.symlinkSync(plant.drop, link);
      const config = structuredClone(plant.config);
      config.data_receiver[0]!.connections = [{ root_path: link }];
      expect((await server.call('POST', '/v1/config', config)).status).toBe(200);
      plant.write('press_1.csv', 'time,part,cyc_t\n2026-01-05 06:00:00,P1,29\n');
      await waitFor(() => !fs.existsSync(path.join(plant.drop, 'press_1.csv')), 20_000, 'the read file deleted from the drop folder');

      fs.unlinkSync(link);
      fs.symlinkSync(system, link);
      const marker = await waitFor(async () => (await server!.call('GET', '/v1/streams')).json.response[0].markers.find((m: { category: string }) => m.category === 'source_refused'), 20_000, 'a source_refused marker');
      expect(marker.message).toContain('a folder of the operating system');
      expect(fs.readdirSync(system)).toEqual(['press_9.csv']);
      expect(plant.delivered('Press_1', 'cycle')).toHaveLength(1);
      expect(await statusTime()).toBeLessThan(1000);
    } finally {
      fs.rmSync(system, { recursive: true, force: true });
    }
  });
});

describe('csv output and names on real paths', () => {
  it('refuses csv output through a link out of the data directory at validation', async () => {
    server = await startTestServer({ allowWrite: [] });
    const outside = tempDirectory('tributary-outside-');
    fs.symlinkSync(outside, path.join(server.dataDirectory, 'exports'));
    const config = { data_receiver: [], transforms: [], data_transmit: [{ transmit_name: 'archive', transmit_type: 'csv', directory: 'exports' }] };
    const { status, json } = await server.call('POST', '/v1/config', config);
    expect(status).toBe(422);
    expect(json.response.violations).toEqual([expect.objectContaining({ json_path: ['data_transmit', 0, 'directory'], level: 'error', description: expect.stringContaining(`(${fs.realpathSync(outside)}) is outside the agent's data directory`) })]);
    expect((await server.call('POST', '/v1/config', { ...config, data_transmit: [{ ...config.data_transmit[0], directory: 'outbox' }] })).status).toBe(200);
  });

  it('refuses names that would leave their folder', async () => {
    server = await startTestServer();
    for (const name of ['..', '.', 'a/../..', 'line\\1', '  ']) {
      const config = reader('/nonexistent-drop');
      config.data_receiver[0]!.data_receiver_name = name;
      const { json } = await server.call('POST', '/v1/config', config);
      expect(json.response.violations, name).toContainEqual(expect.objectContaining({ json_path: ['data_receiver', 0, 'data_receiver_name'], level: 'error', description: expect.stringContaining('names become folder names') }));
    }
    const transmit = await server.call('POST', '/v1/config/validate', { data_receiver: [], transforms: [], data_transmit: [{ transmit_name: '..', transmit_type: 'csv' }] });
    expect(transmit.json.response.violations).toContainEqual(expect.objectContaining({ json_path: ['data_transmit', 0, 'transmit_name'], level: 'error' }));
  });
});
