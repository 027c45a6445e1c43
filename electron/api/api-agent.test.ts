import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { specExampleConfiguration } from '../../shared/testing/config-fixtures.js';
import { ComponentRegistry, type AgentComponent } from '../agent/index.js';
import { waitFor } from '../testing/file-plant.js';
import { type TestServer, startTestServer, tempDirectory } from '../testing/test-host.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('agent start, stop, restart (6, 7, 8)', () => {
  it('starts running, stops, starts and restarts with the spec responses', async () => {
    server = await startTestServer();
    expect((await server.call('GET', '/v1/status')).json.response.agent.status).toBe('running');
    expect((await server.call('POST', '/v1/agent/stop')).json).toEqual({ success: true, response: 'stopped' });
    expect((await server.call('GET', '/v1/status')).json.response.agent.status).toBe('stopped');
    expect((await server.call('POST', '/v1/agent/start')).json).toEqual({ success: true, response: 'running' });
    expect((await server.call('POST', '/v1/agent/restart')).json).toEqual({ success: true, response: 'running' });
    expect((await server.call('GET', '/v1/status')).json.response.agent.status).toBe('running');
  });

  it('fails to start a configuration that was broken by hand, and says why', async () => {
    server = await startTestServer();
    await server.call('POST', '/v1/config', specExampleConfiguration());
    const file = path.join(server.dataDirectory, 'conf.d', 'tributary.json');
    const doc = JSON.parse(fs.readFileSync(file, 'utf8'));
    doc.data_receiver[0].poll_interval = 0;
    fs.writeFileSync(file, JSON.stringify(doc));
    const { status, json } = await server.call('POST', '/v1/agent/restart');
    expect(status).toBe(500);
    expect(json.success).toBe(false);
    expect(json.response).toBe('failed');
    expect(json.error.text).toMatch(/poll_interval/);
    expect((await server.call('GET', '/v1/status')).json.response.agent.status).toBe('failed');
    // A valid save brings the failed agent back without a separate start.
    expect((await server.call('POST', '/v1/config', specExampleConfiguration())).status).toBe(200);
    expect((await server.call('GET', '/v1/status')).json.response.agent.status).toBe('running');
  });

  it('leaves an agent stopped by an operator stopped when a valid configuration is saved', async () => {
    server = await startTestServer();
    await server.call('POST', '/v1/agent/stop');
    expect((await server.call('POST', '/v1/config', specExampleConfiguration())).status).toBe(200);
    expect((await server.call('GET', '/v1/status')).json.response.agent.status).toBe('stopped');
  });

  it('stays stopped across a restart of the server when an operator stopped it', async () => {
    const dataDirectory = tempDirectory();
    server = await startTestServer({ dataDirectory });
    await server.call('POST', '/v1/agent/stop');
    await server.close();
    server = await startTestServer({ dataDirectory });
    expect((await server.call('GET', '/v1/status')).json.response.agent.status).toBe('stopped');
  });

  it('restarts a component whose service stopped and reports the states of real components', async () => {
    const events: string[] = [];
    const registry = new ComponentRegistry().register('Transmit', 'remotedatapost', (config: { transmit_name: string }) => {
      let running = false;
      const component: AgentComponent = {
        kind: 'Transmit',
        name: config.transmit_name,
        start: async () => {
          running = true;
          events.push('start');
        },
        stop: async () => {
          running = false;
          events.push('stop');
        },
        status: () => (running ? 'running' : 'stopped'),
      };
      return component;
    });
    server = await startTestServer({ registry });
    await server.call('POST', '/v1/config', specExampleConfiguration());
    let services = (await server.call('GET', '/v1/status')).json.response.agent.services;
    expect(services).toMatchObject({
      'transmit:cloud': { status: 'running', health: 'ok', reason: null },
      'transform:to_utc': { status: 'unknown' },
      'receiver:plant_csv': { status: 'unknown' },
    });
    expect(Object.keys(services)).toHaveLength(3);
    await server.call('POST', '/v1/agent/stop');
    services = (await server.call('GET', '/v1/status')).json.response.agent.services;
    expect(services['transmit:cloud']).toEqual({ status: 'stopped', health: 'ok', reason: null });
    expect(events).toEqual(['start', 'stop']);
  });
});

describe('GET /v1/status (13)', () => {
  it('has backup, last_data_transmit, machine_info and agent in the spec shape', async () => {
    server = await startTestServer();
    const { json } = await server.call('GET', '/v1/status');
    const status = json.response;
    expect(json.success).toBe(true);
    expect(status.backup.config).toEqual({ last_success: null, error_code: null, error_message: null });
    expect(status.last_data_transmit).toEqual({});
    expect(status.machine_info.cpu.cpu_count).toBeGreaterThan(0);
    expect(status.machine_info.cpu.percent).toBeGreaterThanOrEqual(0);
    expect(status.machine_info.cpu.percent).toBeLessThanOrEqual(100);
    for (const part of ['memory', 'disk'] as const) {
      expect(Object.keys(status.machine_info[part]).sort()).toEqual(['available_gb', 'percent_free', 'percent_used', 'total_gb', 'used_gb']);
    }
    expect(status.machine_info.memory.total_gb).toBeGreaterThan(0);
    expect(status.machine_info.memory.percent_used + status.machine_info.memory.percent_free).toBeCloseTo(100, 0);
    expect(status.agent).toEqual({ status: 'running', services: {}, problems: [] });
  });

  it('reports component types this build cannot run as unknown, never as running', async () => {
    server = await startTestServer();
    const config = specExampleConfiguration() as any;
    config.transforms.push({ transform_name: 'legacy_counter', transform_type: 'counter_assign_column', filter_stream: ['*'] });
    await server.call('POST', '/v1/config', config);
    const { services } = (await server.call('GET', '/v1/status')).json.response.agent;
    expect(services).toMatchObject({
      'transmit:cloud': { status: 'running' },
      'transform:to_utc': { status: 'running' },
      'transform:legacy_counter': { status: 'unknown' },
      'receiver:plant_csv': { status: 'running' },
    });
    expect(Object.keys(services)).toHaveLength(4);
  });

  it('keeps a running receiver whose folder is missing "running", marks it degraded with the reason, and clears that once the folder exists', async () => {
    const started = (server = await startTestServer());
    const folder = path.join(started.dataDirectory, 'not-there-yet');
    const config = specExampleConfiguration();
    config.data_receiver[0]!.connections = [{ root_path: folder }];
    config.data_receiver[0]!.poll_interval = 1;
    await started.call('POST', '/v1/config', config);
    const receiver = async () => (await started.call('GET', '/v1/status')).json.response.agent.services['receiver:plant_csv'];
    await expect.poll(async () => (await receiver()).health, { timeout: 10_000 }).toBe('degraded');
    const degraded = await receiver();
    expect(degraded.status).toBe('running');
    expect(degraded.reason).toBe(`The folder ${folder} does not exist. Tributary keeps looking every 1 s.`);
    // When: the Status page links the problem to the log lines of that time (issue 38).
    expect(degraded.reason_at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}$/);
    expect((await started.call('GET', '/v1/status')).json.response.agent.services['transmit:cloud'].health).toBe('ok');
    fs.mkdirSync(folder);
    await expect.poll(async () => (await receiver()).health, { timeout: 10_000 }).toBe('ok');
    expect((await receiver()).reason).toBeNull();
    expect((await receiver()).reason_at).toBeUndefined();
  });

  it('reports each transmit in last_data_transmit with its backlog', async () => {
    server = await startTestServer();
    await server.call('POST', '/v1/config', specExampleConfiguration());
    const { last_data_transmit } = (await server.call('GET', '/v1/status')).json.response;
    expect(last_data_transmit).toEqual({
      cloud: {
        transmit_type: 'remotedatapost', last_success: null, records_sent: 0, bytes_sent: 0, backlog_records: 0, backlog_bytes: 0, last_error: null, last_error_at: null,
        upload_errors: 0, records_per_minute: 0, lag_seconds: null, drain_seconds: 0,
      },
    });
  });
});

describe('GET /v1/streams (14)', () => {
  it('is an empty list when conf.d holds no configuration', async () => {
    server = await startTestServer();
    expect((await server.call('GET', '/v1/streams')).json).toEqual({ success: true, response: [] });
  });

  it('lists each configured stream with its receiver and markers', async () => {
    server = await startTestServer();
    const config = specExampleConfiguration() as any;
    config.transforms.push({ transform_name: 'legacy_counter', transform_type: 'counter_assign_column', filter_stream: ['Press_1:*'] });
    await server.call('POST', '/v1/config', config);
    const { json } = await server.call('GET', '/v1/streams');
    expect(json.response.map((s: { stream: string }) => s.stream)).toEqual(['Press_1:cycle', 'Oven_2:process']);
    const press = json.response[0];
    expect(press).toMatchObject({ asset: 'Press_1', stream_type: 'cycle', data_receiver: 'plant_csv' });
    // /data/machines does not exist here: the receiver says so on its streams.
    const receiverMarker = await waitFor(async () => (await server!.call('GET', '/v1/streams')).json.response[0].markers.find((m: { component_type: string }) => m.component_type === 'Receiver'));
    expect(receiverMarker).toMatchObject({ component: 'plant_csv', asset: 'Press_1', stream_type: 'cycle', level: 'error', category: 'source_unavailable' });
    expect(receiverMarker.timestamp).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}$/);
    const transformMarker = press.markers.find((m: { component_type: string }) => m.component_type === 'Transform');
    expect(transformMarker).toMatchObject({ component: 'legacy_counter', level: 'warning', category: 'not_implemented' });
    expect(json.response[1].markers.filter((m: { component_type: string }) => m.component_type === 'Transform')).toEqual([]);
  });
  it('shows a change made by hand to the saved file at once, in streams and in the status of a stopped agent', async () => {
    server = await startTestServer();
    // Stopped before the save: the status lists the services of the saved file.
    await server.call('POST', '/v1/agent/stop');
    await server.call('POST', '/v1/config', specExampleConfiguration());
    const services = async () => Object.keys((await server!.call('GET', '/v1/status')).json.response.agent.services).sort();
    const streams = async () => (await server!.call('GET', '/v1/streams')).json.response.map((s: { stream: string; data_receiver: string }) => `${s.data_receiver}/${s.stream}`);
    expect(await services()).toContain('receiver:plant_csv');
    expect(await streams()).toEqual(['plant_csv/Press_1:cycle', 'plant_csv/Oven_2:process']);
    const file = path.join(server.dataDirectory, 'conf.d', 'tributary.json');
    const edited = JSON.parse(fs.readFileSync(file, 'utf8'));
    edited.data_receiver[0].data_receiver_name = 'line_2';
    edited.data_receiver[0].streams.push({ asset: 'Press_3', stream_type: 'cycle', file_filter: ['press3_*.csv'] });
    fs.writeFileSync(file, JSON.stringify(edited, null, 2));
    expect(await services()).toEqual(['receiver:line_2', 'transform:to_utc', 'transmit:cloud']);
    expect(await streams()).toEqual(['line_2/Press_1:cycle', 'line_2/Oven_2:process', 'line_2/Press_3:cycle']);
  });
});

describe('POST /v1/restream (15)', () => {
  it('confirms a restream of configured streams', async () => {
    const purged: string[] = [];
    const registry = new ComponentRegistry().register('Receiver', 'localfile', (config: { data_receiver_name: string }) => ({
      kind: 'Receiver',
      name: config.data_receiver_name,
      start: async () => {},
      stop: async () => {},
      status: () => 'running',
      purge: async (streams) => {
        purged.push(...streams.map((s) => `${s.asset}:${s.stream_type}`));
      },
    }));
    server = await startTestServer({ registry });
    await server.call('POST', '/v1/config', specExampleConfiguration());
    const { status, json } = await server.call('POST', '/v1/restream', { plant_csv: [{ asset: 'Oven_2', stream_type: 'process' }] });
    expect(status).toBe(200);
    expect(json.success).toBe(true);
    expect(json.response).toBe('Restream accepted for 1 stream (plant_csv: Oven_2:process): their data is being read again from the start and sent again.');
    expect(purged).toEqual(['Oven_2:process']);
  });

  it('fails with HTTP 500 naming what is not configured, and restreams nothing', async () => {
    const purged: string[] = [];
    const registry = new ComponentRegistry().register('Receiver', 'localfile', (config: { data_receiver_name: string }) => ({
      kind: 'Receiver', name: config.data_receiver_name, start: async () => {}, stop: async () => {}, status: () => 'running',
      purge: async (streams) => void purged.push(...streams.map((s) => s.asset)),
    }));
    server = await startTestServer({ registry });
    await server.call('POST', '/v1/config', specExampleConfiguration());
    const unknownReceiver = await server.call('POST', '/v1/restream', { plant_csv: [{ asset: 'Press_1', stream_type: 'cycle' }], nope: [{ asset: 'A', stream_type: 'b' }] });
    expect(unknownReceiver.status).toBe(500);
    expect(unknownReceiver.json.success).toBe(false);
    expect(unknownReceiver.json.response).toMatch(/receiver "nope"/);
    const unknownStream = await server.call('POST', '/v1/restream', { plant_csv: [{ asset: 'Press_1', stream_type: 'alarms' }] });
    expect(unknownStream.status).toBe(500);
    expect(unknownStream.json.response).toMatch(/Press_1:alarms/);
    expect(purged).toEqual([]);
  });

  it('refuses a body that does not name streams with 400', async () => {
    server = await startTestServer();
    for (const body of [{}, [], { r: 'Press_1:cycle' }, { r: [{ asset: 'A' }] }]) {
      const { status, json } = await server.call('POST', '/v1/restream', body);
      expect(status).toBe(400);
      expect(json.success).toBe(false);
    }
  });
});
