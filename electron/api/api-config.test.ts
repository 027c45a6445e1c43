import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { specExampleConfiguration } from '../../shared/testing/config-fixtures.js';
import { type TestServer, startTestServer } from '../testing/test-host.js';

const SPEC_TIMESTAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}$/;
let server: TestServer;

beforeEach(async () => {
  server = await startTestServer();
});
afterEach(async () => {
  await server.close();
});

describe('GET /v1/config (1)', () => {
  it('answers an empty configuration and a null last_modified before anything was saved', async () => {
    const { status, json } = await server.call('GET', '/v1/config');
    expect(status).toBe(200);
    expect(json).toEqual({ success: true, response: { data_receiver: [], transforms: [], data_transmit: [] }, meta: { last_modified: null, revision: null, saved_by: null } });
  });

  it('returns the saved configuration with secrets masked and last_modified in the spec form', async () => {
    await server.call('POST', '/v1/config', specExampleConfiguration());
    const { status, json, headers } = await server.call('GET', '/v1/config');
    expect(status).toBe(200);
    expect(json.success).toBe(true);
    expect(json.meta.last_modified).toMatch(SPEC_TIMESTAMP);
    expect(json.meta.revision).toBe(1);
    expect(headers.get('etag')).toBe('"1"');
    const expected = specExampleConfiguration();
    expected.data_transmit[0]!.API_key = '********';
    expect(json.response).toEqual(expected);
    expect(headers.get('content-type')).toMatch(/^application\/json/);
    expect(headers.get('x-tributary-api-version')).toMatch(/^1\.\d+$/);
  });
});

describe('GET /v1/config/templates (2, 3)', () => {
  it('lists the eight templates with name, description and configuration', async () => {
    const { json } = await server.call('GET', '/v1/config/templates');
    expect(json.success).toBe(true);
    expect(json.response.map((t: { name: string }) => t.name)).toEqual(['Basic', 'Localfile', 'SMB', 'SQL', 'OPCUA', 'MQTT', 'Modbus TCP', 'Siemens S7']);
    for (const t of json.response) {
      expect(typeof t.description).toBe('string');
      expect(Object.keys(t.configuration).sort()).toEqual(['data_receiver', 'data_transmit', 'transforms']);
    }
    expect(json.response[0].configuration).toEqual({ data_receiver: [], transforms: [], data_transmit: [] });
  });

  it.each(['localfile', 'smb', 'sql', 'opcua', 'mqtt', 'modbus', 's7'])('returns the %s template configuration', async (protocol) => {
    const { status, json } = await server.call('GET', `/v1/config/templates/${protocol}`);
    expect(status).toBe(200);
    expect(json.success).toBe(true);
    expect(json.response.data_receiver[0].protocol).toBe(protocol);
  });

  it('refuses an mqtt ca_file that does not exist on this PC, at its json_path', async () => {
    const config = {
      data_receiver: [],
      transforms: [],
      data_transmit: [{ transmit_name: 'uns', transmit_type: 'mqtt', filter_stream: ['*'], host: '127.0.0.1', port: 8883, tls: true, ca_file: '/nonexistent/plant-ca.pem', topic: 'p/{asset}' }],
    };
    const { json } = await server.call('POST', '/v1/config/validate', config);
    expect(json.response.violations).toContainEqual(expect.objectContaining({ json_path: ['data_transmit', 0, 'ca_file'], level: 'error', description: expect.stringContaining('cannot be read on this PC (ENOENT)') }));
  });

  it('gives the mqtt template an mqtt transmit with a Unified Namespace topic', async () => {
    const { json } = await server.call('GET', '/v1/config/templates/mqtt');
    expect(json.response.data_transmit[0]).toMatchObject({ transmit_type: 'mqtt', qos: 1 });
    expect(json.response.data_transmit[0].topic).toMatch(/\/\{asset\}\/\{stream_type\}$/);
  });

  it('gives the s7 template a PLC connection on port 102, rack 0, slot 1, and typed addresses', async () => {
    const { json } = await server.call('GET', '/v1/config/templates/s7');
    expect(json.response.data_receiver[0]).toMatchObject({ protocol: 's7', connections: [{ port: 102, rack: 0, slot: 1, timeout: 3 }] });
    expect(json.response.data_receiver[0].streams[0].s7_tags.map((t: { address: string }) => t.address)).toEqual(['DB1,REAL0', 'DB1,DINT4', 'DB1,X8.0', 'MW10']);
  });

  it('gives the modbus template a device connection on port 502 and a float, a counter and a coil', async () => {
    const { json } = await server.call('GET', '/v1/config/templates/modbus');
    expect(json.response.data_receiver[0]).toMatchObject({ protocol: 'modbus', connections: [{ port: 502, timeout: 3 }] });
    expect(json.response.data_receiver[0].streams[0].modbus_registers.map((r: { data_type: string }) => r.data_type)).toEqual(['float32', 'uint32', 'bool']);
  });

  it('answers the spec message for an unknown protocol', async () => {
    const { status, json } = await server.call('GET', '/v1/config/templates/bacnet');
    expect(status).toBe(404);
    expect(json.success).toBe(false);
    expect(json.response).toBe('Requested configuration is not available');
  });
});

describe('POST /v1/config (4)', () => {
  it('saves, answers the saved configuration and last_modified, and keeps it on disk', async () => {
    const { status, json } = await server.call('POST', '/v1/config', specExampleConfiguration());
    expect(status).toBe(200);
    expect(json.success).toBe(true);
    expect(json.meta.last_modified).toMatch(SPEC_TIMESTAMP);
    expect(json.response.data_receiver[0].data_receiver_name).toBe('plant_csv');
    expect(json.response.data_transmit[0].API_key).toBe('********');
    const onDisk = JSON.parse(fs.readFileSync(path.join(server.dataDirectory, 'conf.d', 'tributary.json'), 'utf8'));
    expect(onDisk.data_transmit[0].API_key).toBe('secret-api-key-123');
    if (process.platform !== 'win32') expect(fs.statSync(path.join(server.dataDirectory, 'conf.d', 'tributary.json')).mode & 0o777).toBe(0o600);
  });

  it('refuses an invalid configuration with its violations and leaves the saved one untouched', async () => {
    await server.call('POST', '/v1/config', specExampleConfiguration());
    const before = await server.call('GET', '/v1/config');
    const bad = specExampleConfiguration() as any;
    bad.data_receiver[0].poll_interval = 'fast';
    const { status, json } = await server.call('POST', '/v1/config', bad);
    expect(status).toBe(422);
    expect(json.success).toBe(false);
    expect(json.response.status).toBe('failed');
    expect(json.response.violations).toContainEqual(expect.objectContaining({ json_path: ['data_receiver', 0, 'poll_interval'], level: 'error' }));
    expect(json.error.code).toBe(422);
    // The same document and revision (not the whole reply: its Date header moves on).
    const after = await server.call('GET', '/v1/config');
    expect(after.json).toEqual(before.json);
    expect(after.headers.get('etag')).toBe(before.headers.get('etag'));
  });

  it('reports a configuration whose data_transmit is not a list', async () => {
    const bad = { ...specExampleConfiguration(), data_transmit: 'cloud' };
    const { json } = await server.call('POST', '/v1/config', bad);
    expect(json.success).toBe(false);
    expect(json.response.violations).toContainEqual(expect.objectContaining({ json_path: ['data_transmit'], level: 'error' }));
  });

  it('keeps stored secrets when the masks are sent back', async () => {
    await server.call('POST', '/v1/config', specExampleConfiguration());
    const { json: read } = await server.call('GET', '/v1/config');
    read.response.data_receiver[0].poll_interval = 7;
    const saved = await server.call('POST', '/v1/config', read.response);
    expect(saved.json.success).toBe(true);
    const onDisk = JSON.parse(fs.readFileSync(path.join(server.dataDirectory, 'conf.d', 'tributary.json'), 'utf8'));
    expect(onDisk.data_transmit[0].API_key).toBe('secret-api-key-123');
    expect(onDisk.data_receiver[0].poll_interval).toBe(7);
  });

  it('returns warnings of a saved configuration in meta.violations', async () => {
    const risky = withDropFolder();
    risky.data_receiver[0]!.delete_completed = true;
    const { json } = await server.call('POST', '/v1/config', risky);
    expect(json.success).toBe(true);
    expect(json.meta.violations).toEqual([expect.objectContaining({ json_path: ['data_receiver', 0, 'delete_completed'], level: 'warning' })]);
  });

  it('keeps every saved version in conf.d/history and reports the backup in status', async () => {
    const before = (await server.call('GET', '/v1/status')).json.response.backup.config;
    expect(before).toEqual({ last_success: null, error_code: null, error_message: null });
    await server.call('POST', '/v1/config', specExampleConfiguration());
    const second = specExampleConfiguration();
    second.data_receiver[0]!.poll_interval = 9;
    await server.call('POST', '/v1/config', second);
    const files = fs.readdirSync(path.join(server.dataDirectory, 'conf.d', 'history'));
    const history = files.filter((f) => f.endsWith('.json'));
    expect(history).toHaveLength(2);
    // Who saved each version (the bootstrap token here), beside them.
    const saved = fs.readFileSync(path.join(server.dataDirectory, 'conf.d', 'history', 'versions.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line));
    expect(saved.map((v) => [v.file, v.saved_by])).toEqual(history.sort().map((f) => [f, 'bootstrap']));
    const versions = history.sort().map((f) => JSON.parse(fs.readFileSync(path.join(server.dataDirectory, 'conf.d', 'history', f), 'utf8')));
    expect(versions.map((v) => v.data_receiver[0].poll_interval)).toEqual([5, 9]);
    const backup = (await server.call('GET', '/v1/status')).json.response.backup.config;
    expect(new Date(backup.last_success).getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect(backup.error_code).toBeNull();
  });

  it('refuses a save based on a stale revision (If-Match) with 409', async () => {
    const first = await server.call('POST', '/v1/config', specExampleConfiguration());
    const loaded = first.json.meta.revision;
    const other = specExampleConfiguration();
    other.data_receiver[0]!.poll_interval = 11;
    expect((await server.call('POST', '/v1/config', other, { 'if-match': `"${loaded}"` })).json.success).toBe(true);
    const stale = await server.call('POST', '/v1/config', specExampleConfiguration(), { 'if-match': `"${loaded}"` });
    expect(stale.status).toBe(409);
    expect(stale.json.success).toBe(false);
    expect(stale.json.error.text).toMatch(/you have revision 1; saved is revision 2/);
    expect((await server.call('GET', '/v1/config')).json.response.data_receiver[0].poll_interval).toBe(11);
  });

  it('gives two quick saves different revisions (a counter, not the file time), kept across restarts', async () => {
    const saves = [];
    for (let i = 0; i < 3; i += 1) saves.push(await server.call('POST', '/v1/config', specExampleConfiguration()));
    expect(saves.map((s) => s.json.meta.revision)).toEqual([1, 2, 3]);
    expect(saves.map((s) => s.headers.get('etag'))).toEqual(['"1"', '"2"', '"3"']);
    expect((await server.call('POST', '/v1/config', specExampleConfiguration(), { 'if-match': '2' })).status).toBe(409);
    const dataDirectory = server.dataDirectory;
    await server.close();
    server = await startTestServer({ dataDirectory });
    expect((await server.call('GET', '/v1/config')).json.meta.revision).toBe(3);
    expect((await server.call('POST', '/v1/config', specExampleConfiguration(), { 'if-match': '"3"' })).json.meta.revision).toBe(4);
  });

  it('counts a file changed behind its back (edited by hand) as a new revision', async () => {
    await server.call('POST', '/v1/config', specExampleConfiguration());
    const file = path.join(server.dataDirectory, 'conf.d', 'tributary.json');
    const edited = JSON.parse(fs.readFileSync(file, 'utf8'));
    edited.data_receiver[0].poll_interval = 30;
    fs.writeFileSync(file, JSON.stringify(edited));
    expect((await server.call('GET', '/v1/config')).json.meta.revision).toBe(2);
    expect((await server.call('POST', '/v1/config', specExampleConfiguration(), { 'if-match': '1' })).status).toBe(409);
    expect((await server.call('POST', '/v1/config', specExampleConfiguration(), { 'if-match': '2' })).json.meta.revision).toBe(3);
  });

  it('reads the saved file once per save and hands the validated configuration to the running agent', async () => {
    await server.call('POST', '/v1/config', specExampleConfiguration());
    const reads = vi.spyOn(fs, 'readFileSync');
    try {
      const next = specExampleConfiguration();
      next.data_receiver[0]!.poll_interval = 8;
      expect((await server.call('POST', '/v1/config', next)).json.success).toBe(true);
      const ofConfig = reads.mock.calls.filter(([file]) => String(file).endsWith(`conf.d${path.sep}tributary.json`));
      expect(ofConfig).toHaveLength(1);
    } finally {
      reads.mockRestore();
    }
    expect((await server.call('GET', '/v1/status')).json.response.agent.status).toBe('running');
  });

  it('asks for a body when none is sent', async () => {
    const { status, json } = await server.call('POST', '/v1/config');
    expect(status).toBe(400);
    expect(json.success).toBe(false);
  });
});

/** The spec example reading a real folder in which each stream has a file (no folder warnings). */
function withDropFolder() {
  const config = specExampleConfiguration();
  const folder = fs.mkdtempSync(path.join(server.dataDirectory, 'drop-'));
  fs.writeFileSync(path.join(folder, 'press1_20260105.csv'), 'time,part\n');
  fs.writeFileSync(path.join(folder, 'oven2_20260105.csv'), 'time,zone1\n');
  config.data_receiver[0]!.connections = [{ root_path: folder }];
  return config;
}

describe('POST /v1/config/validate (5)', () => {
  it('passes a valid configuration with an empty violations list', async () => {
    const { status, json } = await server.call('POST', '/v1/config/validate', withDropFolder());
    expect(status).toBe(200);
    // Nothing runs yet: saving would start every service.
    expect(json).toEqual({
      success: true,
      response: { status: 'passed', violations: [], changes: { start: ['transmit:cloud', 'transform:to_utc', 'receiver:plant_csv'], restart: [], stop: [], keep: [] } },
    });
  });

  it('fails with every violation and saves nothing', async () => {
    const bad = specExampleConfiguration() as any;
    bad.data_receiver[0].connections = [];
    bad.transforms[0].timezone = 'Nowhere/Land';
    const { json } = await server.call('POST', '/v1/config/validate', bad);
    expect(json.success).toBe(false);
    expect(json.response.status).toBe('failed');
    expect(json.response.violations.map((v: { json_path: unknown }) => v.json_path)).toEqual(
      expect.arrayContaining([['data_receiver', 0, 'connections'], ['transforms', 0, 'timezone']]),
    );
    expect(fs.existsSync(path.join(server.dataDirectory, 'conf.d', 'tributary.json'))).toBe(false);
  });

  it('passes with warnings listed when the configuration is legal but risky', async () => {
    const risky = withDropFolder();
    risky.data_receiver[0]!.delete_completed = true;
    const { json } = await server.call('POST', '/v1/config/validate', risky);
    expect(json.response.status).toBe('passed');
    expect(json.response.violations).toEqual([expect.objectContaining({ level: 'warning', json_path: ['data_receiver', 0, 'delete_completed'] })]);
  });
});
