/**
 * Fault suite: where the agent writes. CSV output stays in the data directory unless the operator
 * allows a folder (--allow-write), even through a symbolic link; every file the agent writes is
 * for its user (0600) or its group too (0640). Integration test: runs the real server process.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../testing/file-plant.js';
import { type ServeProcess, serveProcess } from '../testing/serve-process.js';
import { tempDirectory } from '../testing/test-host.js';

let agent: ServeProcess | undefined;
afterEach(async () => {
  await agent?.crash();
  agent = undefined;
});

const configuration = (drop: string, directory?: string) => ({
  data_receiver: [
    {
      data_receiver_name: 'plant',
      protocol: 'localfile',
      poll_interval: 1,
      connections: [{ root_path: drop }],
      streams: [{ asset: 'Press_1', stream_type: 'cycle', file_filter: ['*.csv'] }],
      parsers: [{ parser_name: 'csv', parser_type: 'spreadsheet' }],
    },
  ],
  transforms: [],
  data_transmit: [{ transmit_name: 'archive', transmit_type: 'csv', poll_interval: 1, ...(directory ? { directory } : {}) }],
});

const csvFiles = (folder: string) => (fs.existsSync(folder) ? fs.readdirSync(folder).filter((n) => n.endsWith('.csv')) : []);

/** Every file and folder under `root` with its permission bits. */
function modes(root: string): { file: string; mode: number; directory: boolean }[] {
  const out: { file: string; mode: number; directory: boolean }[] = [];
  for (const entry of fs.readdirSync(root, { withFileTypes: true, recursive: true })) {
    const file = path.join(entry.parentPath, entry.name);
    const stat = fs.lstatSync(file);
    if (stat.isSymbolicLink()) continue;
    out.push({ file: path.relative(root, file), mode: stat.mode & 0o777, directory: stat.isDirectory() });
  }
  return out;
}

describe.runIf(process.platform !== 'win32')('where the agent writes', () => {
  it('writes files for its user and group only, and refuses csv output outside its data directory', async () => {
    const dataDirectory = tempDirectory();
    const drop = tempDirectory('tributary-drop-');
    agent = await serveProcess(['--data-dir', dataDirectory, '--port', '0']);
    expect((await agent.call('POST', '/v1/config', configuration(drop))).status).toBe(200);
    fs.writeFileSync(path.join(drop, 'press.csv'), 'part\n1\n2\n');
    await waitFor(() => csvFiles(path.join(dataDirectory, 'outbox')).length === 1, 20_000, 'the csv output');

    const written = modes(dataDirectory);
    expect(written.map((w) => w.file)).toEqual(expect.arrayContaining(['api-token', 'conf.d/tributary.json', 'logs/agent_core.log', 'state/agent.db', 'state/kpi.db', 'outbox/Press_1__cycle.csv']));
    for (const { file, mode, directory } of written) expect({ file, mode: mode & (directory ? 0o027 : 0o037) }).toEqual({ file, mode: 0 });
    for (const secret of ['api-token', 'conf.d/tributary.json', 'state/agent.db']) expect(fs.statSync(path.join(dataDirectory, secret)).mode & 0o777, secret).toBe(0o600);

    for (const directory of ['/etc', '../../etc/cron.d', 'conf.d', tempDirectory('tributary-elsewhere-')]) {
      const { status, json } = await agent.call('POST', '/v1/config', configuration(drop, directory));
      expect(status, directory).toBe(422);
      expect(json.response.violations).toContainEqual(expect.objectContaining({ json_path: ['data_transmit', 0, 'directory'], level: 'error' }));
    }
  });

  it('a preview of the agent\'s conf.d is refused by the server process, which answers on and keeps its secrets', async () => {
    const dataDirectory = tempDirectory();
    agent = await serveProcess(['--data-dir', dataDirectory, '--port', '0']);
    const key = 'key-a1b2c3d4e5f6a7b8';
    const cloud = { data_receiver: [], transforms: [], data_transmit: [{ transmit_name: 'cloud', transmit_type: 'remotedatapost', base_url: 'http://127.0.0.1:1', API_key: key, API_key_ID: 'edge-1' }] };
    expect((await agent.call('POST', '/v1/config', cloud)).status).toBe(200);
    const probe = structuredClone(configuration(path.join(dataDirectory, 'conf.d')));
    probe.data_receiver[0]!.streams[0]!.file_filter = ['*.json'];
    const { status, json } = await agent.call('POST', '/v1/config/preview', { configuration: probe, rows: 100 });
    expect(status).toBe(422);
    expect(JSON.stringify(json)).not.toContain(key);
    expect(json.response.violations).toContainEqual(expect.objectContaining({ json_path: ['data_receiver', 0, 'connections', 0, 'root_path'], level: 'error' }));
    const started = performance.now();
    expect((await agent.call('GET', '/v1/status')).status).toBe(200);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('writes into a folder the operator allowed with --allow-write', async () => {
    const allowed = tempDirectory('tributary-allowed-');
    const drop = tempDirectory('tributary-drop-');
    agent = await serveProcess(['--data-dir', tempDirectory(), '--port', '0', '--allow-write', allowed]);
    expect((await agent.call('POST', '/v1/config', configuration(drop, path.join(allowed, 'line1')))).status).toBe(200);
    fs.writeFileSync(path.join(drop, 'press.csv'), 'part\n1\n');
    await waitFor(() => csvFiles(path.join(allowed, 'line1')).length === 1, 20_000, 'output in the allowed folder');
    expect(fs.statSync(path.join(allowed, 'line1', csvFiles(path.join(allowed, 'line1'))[0]!)).mode & 0o777).toBe(0o640);
  });

  it('writes nothing through a link that leads out of the data directory, and keeps the records queued', async () => {
    const dataDirectory = tempDirectory();
    const outside = tempDirectory('tributary-outside-');
    const drop = tempDirectory('tributary-drop-');
    fs.symlinkSync(outside, path.join(dataDirectory, 'outbox'));
    agent = await serveProcess(['--data-dir', dataDirectory, '--port', '0']);
    // Validation follows the link (the real path is judged) …
    const refused = await agent.call('POST', '/v1/config', configuration(drop));
    expect(refused.status).toBe(422);
    expect(refused.json.response.violations).toContainEqual(expect.objectContaining({ json_path: ['data_transmit', 0, 'directory'], description: expect.stringContaining(`(${fs.realpathSync(outside)}) is outside`) }));
    // … and the transmit checks again before writing: a link made after the save.
    fs.unlinkSync(path.join(dataDirectory, 'outbox'));
    expect((await agent.call('POST', '/v1/config', configuration(drop))).status).toBe(200);
    fs.symlinkSync(outside, path.join(dataDirectory, 'outbox'));
    fs.writeFileSync(path.join(drop, 'press.csv'), 'part\n1\n2\n3\n');
    const marker = await waitFor(async () => (await agent!.call('GET', '/v1/streams')).json.response[0].markers.find((m: { category: string }) => m.category === 'write_refused'), 20_000, 'a write_refused marker');
    expect(marker.message).toContain('outside the agent\'s data directory');
    const status = (await agent.call('GET', '/v1/status')).json.response;
    expect(status.last_data_transmit.archive.backlog_records).toBe(3);
    expect(fs.readdirSync(outside)).toEqual([]);
  });
});
