/**
 * kill -9 of the agent while it receives (integration, the Mosquitto of scripts/ci/start-mosquitto.sh).
 * The agent runs as a real process (`node dist/electron/serve.js`): an mqtt receiver (QoS 1,
 * persistent session) whose records an mqtt transmit publishes into another topic tree, where a
 * test subscriber with its own persistent session counts them. A message is acknowledged to the
 * broker only after its records are committed, so a crash can only make the broker deliver again
 * what was in flight: every published message must come out, duplicates with the same record_id.
 */
import crypto from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../../../testing/file-plant.js';
import { BROKER, TestSubscriber, testClient } from '../../../testing/mqtt-broker.js';
import { type ServeProcess, serveProcess } from '../../../testing/serve-process.js';
import { tempDirectory } from '../../../testing/test-host.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const MESSAGES = 6000;
const CHUNK = 100;

describe('mqtt receiver: kill -9 of the agent (Mosquitto)', () => {
  it('loses no message: after restarts every published message is committed and sent on, duplicates only with the same record_id', async () => {
    const id = crypto.randomBytes(4).toString('hex');
    const prefix = `test/${id}`;
    const broker = { host: '127.0.0.1', port: BROKER.port, username: BROKER.username, password: BROKER.password };
    const config = {
      data_receiver: [
        {
          data_receiver_name: 'machines',
          protocol: 'mqtt',
          connections: [{ ...broker, client_id: `crash-rx-${id}`, timeout: 5 }],
          streams: [{ asset: 'Press_1', stream_type: 'cycle', topic: `${prefix}/in/#`, timestamp_field: 'ts', timestamp_unit: 'ms' }],
        },
      ],
      transforms: [],
      data_transmit: [{ transmit_name: 'uns', transmit_type: 'mqtt', filter_stream: ['*'], ...broker, client_id: `crash-tx-${id}`, topic: `${prefix}/out/{asset}/{stream_type}`, timeout: 10, poll_interval: 1 }],
    };
    const subscriber = await new TestSubscriber(`${prefix}/out/#`).start();
    cleanups.push(() => subscriber.close());
    const seen = () => new Set(subscriber.records().map((r) => r.fieldvalues.seq));

    const dataDirectory = tempDirectory('tributary-mqtt-rx-crash-');
    let agent: ServeProcess | undefined = await serveProcess(['--data-dir', dataDirectory, '--port', '0']);
    cleanups.push(async () => agent?.crash());
    expect((await agent.call('POST', '/v1/config', config)).json.success).toBe(true);
    const receiving = async (a: ServeProcess) => (await a.call('GET', '/v1/status')).json.response.agent.services['receiver:machines']?.status === 'running';
    await waitFor(() => receiving(agent!), 20_000, 'the receiver to subscribe');

    // The machine publishes on, whatever happens to the agent (the broker keeps the session's messages).
    const publisher = await testClient();
    cleanups.push(() => publisher.endAsync(true).then(() => undefined));
    let published = 0;
    const publishing = (async () => {
      for (let start = 0; start < MESSAGES; start += CHUNK) {
        await Promise.all(
          Array.from({ length: CHUNK }, (_, k) => publisher.publishAsync(`${prefix}/in/press1`, JSON.stringify({ ts: 1767600000000 + (start + k) * 10, seq: start + k, force: 1.5 }), { qos: 1 })),
        );
        published = start + CHUNK;
        // A machine's pace (about 2,000 messages/s), so that the crashes fall while it publishes.
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();

    // Killed twice while records flow: each time once more of them came out.
    let crashedWhilePublishing = 0;
    for (const threshold of [MESSAGES / 6, MESSAGES / 2]) {
      await waitFor(() => seen().size >= threshold, 60_000, `${threshold} records through the agent (have ${seen().size})`);
      if (published < MESSAGES) crashedWhilePublishing += 1;
      await agent.crash();
      agent = await serveProcess(['--data-dir', dataDirectory, '--port', '0']);
    }
    await publishing;

    await waitFor(() => seen().size === MESSAGES, 90_000, `all ${MESSAGES} records (have ${seen().size})`);
    const records = subscriber.records();
    const idsBySeq = new Map<number, Set<string>>();
    for (const record of records) idsBySeq.set(record.fieldvalues.seq, (idsBySeq.get(record.fieldvalues.seq) ?? new Set()).add(record.record_id));
    expect([...idsBySeq.keys()].sort((a, b) => a - b)).toEqual(Array.from({ length: MESSAGES }, (_, i) => i));
    // A redelivered message gives the same record, so a duplicate downstream carries the same id.
    expect([...idsBySeq.values()].filter((ids) => ids.size !== 1)).toEqual([]);
    expect(records[0]).toMatchObject({ asset: 'Press_1', stream_type: 'cycle', fieldvalues: { force: 1.5 } });
    console.info(`mqtt receiver kill -9: ${records.length - MESSAGES} duplicate(s) of ${MESSAGES}; ${crashedWhilePublishing} of 2 crashes while the machine still published`);
  }, 240_000);
});
