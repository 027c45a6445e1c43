import { afterEach, describe, expect, it } from 'vitest';
import { type AgentComponent, ComponentRegistry } from '../agent/index.js';
import { type TestServer, startTestServer } from '../testing/test-host.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Stand-in receivers and transmits that write down every start and stop (a stop ends a connection). */
function recordingRegistry() {
  const events: string[] = [];
  let failNext: string | undefined;
  const component = (kind: 'Receiver' | 'Transmit', name: string): AgentComponent => {
    let running = false;
    return {
      kind,
      name,
      start: async () => {
        if (failNext === name) {
          failNext = undefined;
          throw new Error('the server refused the connection');
        }
        running = true;
        events.push(`start ${name}`);
      },
      stop: async () => {
        if (running) events.push(`stop ${name}`);
        running = false;
      },
      status: () => (running ? 'running' : 'stopped'),
      purge: async () => undefined,
    };
  };
  const registry = new ComponentRegistry()
    .register('Receiver', 'sql', (config: { data_receiver_name: string }) => component('Receiver', config.data_receiver_name))
    .register('Receiver', 'opcua', (config: { data_receiver_name: string }) => component('Receiver', config.data_receiver_name))
    .register('Transmit', 'csv', (config: { transmit_name: string }) => component('Transmit', config.transmit_name));
  return { registry, events, failOnce: (name: string) => (failNext = name) };
}

const sql = (name: string, pollInterval = 5) => ({
  data_receiver_name: name,
  protocol: 'sql',
  poll_interval: pollInterval,
  connections: [{ connection_name: 'db', database_type: 'postgresql', host: '127.0.0.1', port: 1, database_name: 'plant', username: 'reader', password: 'pw' }],
  streams: [{ asset: `${name}_asset`, stream_type: 'orders', query: 'SELECT id FROM orders WHERE id > :id ORDER BY id', state_fields: [{ column_name: 'id', data_type: 'integer' }] }],
});
const opcua = (name: string) => ({
  data_receiver_name: name,
  protocol: 'opcua',
  connections: [{ host: '127.0.0.1', port: 4840 }],
  streams: [{ asset: 'Extruder', stream_type: 'process', opcua_tags: [{ name: 'ns=2;s=Temp', exportname: 'temp' }] }],
});
const csv = (name: string, filter = ['*']) => ({ transmit_name: name, transmit_type: 'csv', filter_stream: filter });
const rename = (name: string) => ({ transform_name: name, transform_type: 'rename', filter_stream: ['*'], renames: { a: 'b' } });
const config = (parts: { receivers?: unknown[]; transforms?: unknown[]; transmits?: unknown[] }) => ({ data_receiver: parts.receivers ?? [], transforms: parts.transforms ?? [], data_transmit: parts.transmits ?? [] });

async function saved(body: unknown) {
  const reply = await server!.call('POST', '/v1/config', body);
  expect(reply.json.success, JSON.stringify(reply.json)).toBe(true);
  return reply.json.meta.changes;
}

describe('saving a configuration restarts only what changed', () => {
  it('says before the save what it will do, does exactly that, and logs it', async () => {
    const { registry, events } = recordingRegistry();
    server = await startTestServer({ registry });
    expect(await saved(config({ receivers: [sql('erp'), opcua('plc')], transforms: [rename('names')], transmits: [csv('archive')] }))).toEqual({
      start: ['transmit:archive', 'transform:names', 'receiver:erp', 'receiver:plc'],
      restart: [],
      stop: [],
      keep: [],
    });
    events.length = 0;
    const next = config({ receivers: [sql('erp', 10), opcua('plc')], transforms: [rename('names')], transmits: [csv('archive')] });
    const preview = await server.call('POST', '/v1/config/validate', next);
    const expected = { start: [], restart: ['receiver:erp'], stop: [], keep: ['transmit:archive', 'transform:names', 'receiver:plc'] };
    expect(preview.json.response).toEqual({ status: 'passed', violations: [], changes: expected });
    expect(events).toEqual([]);
    expect(await saved(next)).toEqual(expected);
    expect(events).toEqual(['stop erp', 'start erp']);
    const log: string[] = (await server.call('GET', '/v1/log/stream?lines=50')).json.response;
    expect(log.some((line) => / \| supervisor \| INFO \| Configuration applied: restarted receiver:erp; started none; stopped none; kept running transmit:archive, transform:names, receiver:plc$/.test(line))).toBe(true);
    const services = (await server.call('GET', '/v1/status')).json.response.agent.services;
    expect(Object.keys(services)).toEqual(['transmit:archive', 'transform:names', 'receiver:erp', 'receiver:plc']);
  });

  it('starts what is new, stops what is gone, restarts a changed transmit without touching receivers', async () => {
    const { registry, events } = recordingRegistry();
    server = await startTestServer({ registry });
    await saved(config({ receivers: [sql('erp'), opcua('plc')], transmits: [csv('archive')] }));
    events.length = 0;
    const changes = await saved(config({ receivers: [opcua('plc'), sql('mes')], transmits: [csv('archive', ['plc_asset:*', 'Extruder:process'])] }));
    expect(changes).toEqual({ start: ['receiver:mes'], restart: ['transmit:archive'], stop: ['receiver:erp'], keep: ['receiver:plc'] });
    // Receivers that go stop first, then the transmits; what is new starts in pipeline order.
    expect(events).toEqual(['stop erp', 'stop archive', 'start archive', 'start mes']);
  });

  it('keeps everything when only the order of keys or of the list changed', async () => {
    const { registry, events } = recordingRegistry();
    server = await startTestServer({ registry });
    await saved(config({ receivers: [sql('erp'), opcua('plc')], transmits: [csv('archive')] }));
    events.length = 0;
    const reordered = Object.fromEntries(Object.entries(sql('erp')).reverse());
    expect(await saved(config({ receivers: [opcua('plc'), reordered], transmits: [csv('archive')] }))).toEqual({ start: [], restart: [], stop: [], keep: ['transmit:archive', 'receiver:plc', 'receiver:erp'] });
    expect(events).toEqual([]);
  });

  it('starts again a service whose start had failed, even if its configuration is the same', async () => {
    const { registry, events, failOnce } = recordingRegistry();
    server = await startTestServer({ registry });
    failOnce('plc');
    await saved(config({ receivers: [opcua('plc')], transmits: [csv('archive')] }));
    expect((await server.call('GET', '/v1/status')).json.response.agent.services['receiver:plc']).toMatchObject({ status: 'stopped' });
    events.length = 0;
    expect(await saved(config({ receivers: [opcua('plc')], transmits: [csv('archive')] }))).toEqual({ start: ['receiver:plc'], restart: [], stop: [], keep: ['transmit:archive'] });
    expect(events).toEqual(['start plc']);
  });

  it('changes nothing that runs while the agent is stopped, and says so', async () => {
    const { registry, events } = recordingRegistry();
    server = await startTestServer({ registry });
    await saved(config({ receivers: [sql('erp')], transmits: [csv('archive')] }));
    await server.call('POST', '/v1/agent/stop');
    events.length = 0;
    const next = config({ receivers: [sql('erp', 10)], transmits: [csv('archive')] });
    const none = { start: [], restart: [], stop: [], keep: [] };
    expect((await server.call('POST', '/v1/config/validate', next)).json.response.changes).toEqual(none);
    expect(await saved(next)).toEqual(none);
    expect(events).toEqual([]);
  });

  it('gives no changes for a document with errors', async () => {
    server = await startTestServer({ registry: recordingRegistry().registry });
    const broken = config({ receivers: [{ ...sql('erp'), poll_interval: 'often' }], transmits: [csv('archive')] });
    const { json } = await server.call('POST', '/v1/config/validate', broken);
    expect(json.response.status).toBe('failed');
    expect(json.response.changes).toBeUndefined();
  });
});
