/**
 * Partial deploy with mqtt components (integration, the Mosquitto of scripts/ci/start-mosquitto.sh):
 * a save that changes other components keeps the unchanged mqtt receiver's and transmit's broker
 * connections (counted in the broker's own log), and what did change applies to their records.
 */
import crypto from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../../../testing/file-plant.js';
import { BROKER, TestSubscriber, connectionsOf, testClient } from '../../../testing/mqtt-broker.js';
import { type TestServer, startTestServer, tempDirectory } from '../../../testing/test-host.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const sorted = (changes: Record<string, string[]>) => Object.fromEntries(Object.entries(changes).map(([key, list]) => [key, [...list].sort()]));

describe('mqtt: a save that changes other components keeps the broker sessions', () => {
  it('keeps the receiver’s and transmit’s connections while a new transform applies to their records; a changed receiver reconnects', async () => {
    const id = crypto.randomBytes(4).toString('hex');
    const prefix = `test/${id}`;
    const broker = { host: '127.0.0.1', port: BROKER.port, username: BROKER.username, password: BROKER.password };
    const dataDirectory = tempDirectory('tributary-mqtt-deploy-');
    const receiver = (timeout: number) => ({
      data_receiver_name: 'machines',
      protocol: 'mqtt',
      connections: [{ ...broker, client_id: `deploy-rx-${id}`, timeout }],
      streams: [{ asset: 'Press_1', stream_type: 'cycle', topic: `${prefix}/in/#` }],
    });
    const uns = { transmit_name: 'uns', transmit_type: 'mqtt', filter_stream: ['*'], ...broker, client_id: `deploy-tx-${id}`, topic: `${prefix}/out/{asset}/{stream_type}`, timeout: 10, poll_interval: 1 };
    const archive = (filter: string[]) => ({ transmit_name: 'archive', transmit_type: 'csv', filter_stream: filter, directory: `${dataDirectory}/archive`, poll_interval: 1 });
    const rename = { transform_name: 'units', transform_type: 'rename', filter_stream: ['Press_1:cycle'], renames: { force: 'force_kn' } };

    const subscriber = await new TestSubscriber(`${prefix}/out/#`).start();
    cleanups.push(() => subscriber.close());
    const publisher = await testClient();
    cleanups.push(() => publisher.endAsync(true).then(() => undefined));
    const server: TestServer = await startTestServer({ dataDirectory, stopTimeoutMs: 10_000 });
    cleanups.push(() => server.close());
    const save = async (config: unknown) => {
      const reply = await server.call('POST', '/v1/config', config);
      expect(reply.json.success, JSON.stringify(reply.json)).toBe(true);
      return sorted(reply.json.meta.changes);
    };
    const receiving = async () => (await server.call('GET', '/v1/status')).json.response.agent.services['receiver:machines']?.status === 'running';

    const first = { data_receiver: [receiver(5)], transforms: [], data_transmit: [uns, archive(['Other:*'])] };
    await save(first);
    await waitFor(receiving, 20_000, 'the receiver to subscribe');
    await publisher.publishAsync(`${prefix}/in/press1`, JSON.stringify({ force: 1.5 }), { qos: 1 });
    await waitFor(() => subscriber.records().some((r) => r.fieldvalues.force === 1.5), 20_000, 'the first record through the agent');
    expect([connectionsOf(`deploy-rx-${id}`), connectionsOf(`deploy-tx-${id}`)]).toEqual([1, 1]);

    const second = { ...first, transforms: [rename], data_transmit: [uns, archive(['*'])] };
    expect(await save(second)).toEqual({ start: ['transform:units'], restart: ['transmit:archive'], stop: [], keep: ['receiver:machines', 'transmit:uns'] });
    await publisher.publishAsync(`${prefix}/in/press1`, JSON.stringify({ force: 2.5 }), { qos: 1 });
    await waitFor(() => subscriber.records().some((r) => r.fieldvalues.force_kn === 2.5), 20_000, 'the renamed record through the kept components');
    expect([connectionsOf(`deploy-rx-${id}`), connectionsOf(`deploy-tx-${id}`)]).toEqual([1, 1]);

    // A change of the receiver itself does connect again (the transmit stays connected).
    expect(await save({ ...second, data_receiver: [receiver(6)] })).toEqual({ start: [], restart: ['receiver:machines'], stop: [], keep: ['transform:units', 'transmit:archive', 'transmit:uns'] });
    await waitFor(() => connectionsOf(`deploy-rx-${id}`) === 2, 20_000, 'a new connection of the changed receiver');
    await waitFor(receiving, 20_000, 'the changed receiver to subscribe');
    await publisher.publishAsync(`${prefix}/in/press1`, JSON.stringify({ force: 3.5 }), { qos: 1 });
    await waitFor(() => subscriber.records().some((r) => r.fieldvalues.force_kn === 3.5), 20_000, 'a record after the receiver restarted');
    expect(connectionsOf(`deploy-tx-${id}`)).toBe(1);
  }, 90_000);
});
