/**
 * An exception in a source's callback (a message, row or value handler) is a failure of that
 * component only (issue 39): logged to agent_core.log with its stack, marked on its streams, and
 * the component restarts alone while the agent, its API and the other receivers run on.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type AgentComponent, type ComponentContext, ComponentRegistry } from '../agent/index.js';
import { waitFor } from '../testing/file-plant.js';
import { type TestServer, startTestServer } from '../testing/test-host.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A receiver whose row handler throws on its first run when its name says so (a bug a hostile row hits). */
function flakyRegistry() {
  const starts = new Map<string, number>();
  const registry = new ComponentRegistry().register('Receiver', 'sql', (config: { data_receiver_name: string }, context: ComponentContext): AgentComponent => {
    const name = config.data_receiver_name;
    let running = false;
    let timer: NodeJS.Timeout | undefined;
    const onRow = () => {
      if (name.startsWith('flaky') && starts.get(name) === 1) throw new RangeError('Maximum call stack size exceeded');
    };
    return {
      kind: 'Receiver',
      name,
      start: async () => {
        running = true;
        starts.set(name, (starts.get(name) ?? 0) + 1);
        timer = setTimeout(() => {
          try {
            onRow();
          } catch (cause) {
            context.fail(cause, 'handling row 3 of machines:orders');
          }
        }, 10);
      },
      stop: async () => {
        clearTimeout(timer);
        running = false;
      },
      status: () => (running ? 'running' : 'stopped'),
    };
  });
  return { registry, starts };
}

const receiver = (name: string) => ({
  data_receiver_name: name,
  protocol: 'sql',
  poll_interval: 5,
  connections: [{ connection_name: 'db', database_type: 'postgresql', host: '127.0.0.1', port: 1, database_name: 'plant', username: 'reader', password: 'pw' }],
  streams: [{ asset: `${name}_asset`, stream_type: 'orders', query: 'SELECT id FROM orders WHERE id > :id ORDER BY id', state_fields: [{ column_name: 'id', data_type: 'integer' }] }],
});

describe('an exception in a source handler', () => {
  it('is logged with its stack and restarts that receiver alone; status answers and the others run on', async () => {
    const { registry, starts } = flakyRegistry();
    server = await startTestServer({ registry });
    const saved = await server.call('POST', '/v1/config', { data_receiver: [receiver('flaky'), receiver('steady')], transforms: [], data_transmit: [] });
    expect(saved.json.success).toBe(true);
    const coreLog = () => fs.readFileSync(path.join(server!.dataDirectory, 'logs', 'agent_core.log'), 'utf8');
    await waitFor(() => coreLog().includes('receiver:flaky restarted after a failure.'), 15_000, 'the failed receiver to restart');
    const failure = coreLog().split('\n').find((line) => line.includes('receiver:flaky failed while handling row 3 of machines:orders'))!;
    expect(failure).toContain('| ERROR |');
    expect(failure).toContain('Maximum call stack size exceeded. It restarts alone in 1 s; the rest of the agent runs on.');
    expect(failure).toMatch(/RangeError: Maximum call stack size exceeded\\n\s+at /);
    expect(starts).toEqual(new Map([['flaky', 2], ['steady', 1]]));
    const status = await server.call('GET', '/v1/status');
    expect(status.status).toBe(200);
    expect(status.json.response.agent.services).toMatchObject({ 'receiver:flaky': { status: 'running' }, 'receiver:steady': { status: 'running' } });
    const markers = await server.call('GET', '/v1/streams');
    expect(JSON.stringify(markers.json.response)).toContain('was restarted; see agent_core.log');
  });

  it('does not start a receiver again that the operator stopped meanwhile', async () => {
    const { registry, starts } = flakyRegistry();
    server = await startTestServer({ registry });
    await server.call('POST', '/v1/config', { data_receiver: [receiver('flaky')], transforms: [], data_transmit: [] });
    const coreLog = () => fs.readFileSync(path.join(server!.dataDirectory, 'logs', 'agent_core.log'), 'utf8');
    await waitFor(() => coreLog().includes('receiver:flaky failed while'), 15_000, 'the failure');
    expect((await server.call('POST', '/v1/agent/stop')).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(starts.get('flaky')).toBe(1);
    expect((await server.call('GET', '/v1/status')).json.response.agent.services['receiver:flaky']?.status).not.toBe('running');
  });
});
