/**
 * The mqtt receiver against the real Mosquitto of scripts/ci/start-mosquitto.sh (integration):
 * the agent (real host) subscribes, a test client publishes, the csv transmit writes the records.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../../../testing/file-plant.js';
import { BROKER, testClient } from '../../../testing/mqtt-broker.js';
import { type TestServer, startTestServer, tempDirectory } from '../../../testing/test-host.js';

const servers: TestServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

function plant(connection: Record<string, unknown> = {}, stream: Record<string, unknown> = {}) {
  const id = crypto.randomBytes(4).toString('hex');
  const dataDirectory = tempDirectory('tributary-mqtt-rx-');
  const outbox = path.join(dataDirectory, 'csv');
  const prefix = `test/${id}`;
  const config = {
    data_receiver: [
      {
        data_receiver_name: 'broker',
        protocol: 'mqtt',
        connections: [{ host: '127.0.0.1', port: BROKER.port, username: BROKER.username, password: BROKER.password, client_id: `rx-${id}`, timeout: 5, ...connection }],
        streams: [{ asset: 'Press_1', stream_type: 'process', topic: `${prefix}/press1/#`, topic_field: 'topic', timestamp_field: 'ts', timestamp_unit: 'ms', ...stream }],
      },
    ],
    transforms: [],
    data_transmit: [{ transmit_name: 'archive', transmit_type: 'csv', filter_stream: ['*'], directory: outbox, poll_interval: 1 }],
  };
  const rows = (): Record<string, string>[] => {
    if (!fs.existsSync(outbox)) return [];
    return fs.readdirSync(outbox).flatMap((name) => {
      const [header, ...lines] = fs.readFileSync(path.join(outbox, name), 'utf8').trimEnd().split('\n');
      const columns = header!.split(',');
      return lines.map((line) => Object.fromEntries(line.split(',').map((cell, i) => [columns[i]!, cell])));
    });
  };
  const start = async () => {
    const server = await startTestServer({ dataDirectory });
    servers.push(server);
    const saved = await server.call('POST', '/v1/config', config);
    expect(saved.json.success, JSON.stringify(saved.json)).toBe(true);
    return server;
  };
  const markers = async (server: TestServer) => ((await server.call('GET', '/v1/streams')).json.response as { markers: { category: string; message: string }[] }[]).flatMap((s) => s.markers);
  const status = async (server: TestServer) => (await server.call('GET', '/v1/status')).json.response.agent.services['receiver:broker']?.status;
  return { prefix, config, rows, start, markers, status };
}

async function publish(topic: string, payloads: string[]): Promise<void> {
  const client = await testClient();
  for (const payload of payloads) await client.publishAsync(topic, payload, { qos: 1 });
  await client.endAsync();
}

describe('mqtt receiver (Mosquitto)', () => {
  it('records JSON messages, and after a restart reads what was published while it was stopped', async () => {
    const p = plant();
    const server = await p.start();
    await waitFor(async () => (await p.status(server)) === 'running', 15_000, 'the receiver to subscribe');
    await publish(`${p.prefix}/press1/temp`, ['{"ts": 1767600000000, "temp": 81.5, "motor": {"rpm": 1200}}', '[{"ts": 1767600001000, "temp": 82}, {"ts": 1767600002000, "temp": 83}]']);
    const first = await waitFor(() => p.rows().length >= 3 && p.rows(), 15_000, '3 rows');
    expect(first.map((r) => [r.timestamp, r.temp, r.topic])).toEqual([
      ['2026-01-05T08:00:00.000000Z', '81.5', `${p.prefix}/press1/temp`],
      ['2026-01-05T08:00:01.000000Z', '82', `${p.prefix}/press1/temp`],
      ['2026-01-05T08:00:02.000000Z', '83', `${p.prefix}/press1/temp`],
    ]);
    expect(first[0]!['motor.rpm']).toBe('1200');

    await server.close();
    servers.splice(0);
    // The persistent session keeps these for the agent while it is stopped.
    await publish(`${p.prefix}/press1/temp`, Array.from({ length: 20 }, (_, i) => JSON.stringify({ ts: 1767600010000 + i * 1000, temp: 90 + i })));
    await p.start();
    const all = (await waitFor(() => p.rows().length >= 23 && p.rows(), 20_000, '23 rows')).sort((a, b) => a.timestamp!.localeCompare(b.timestamp!));
    expect(all.slice(3).map((r) => Number(r.temp))).toEqual(Array.from({ length: 20 }, (_, i) => 90 + i));
    expect(new Set(all.map((r) => r.record_id)).size).toBe(23);
  });

  it('says in plain words that the password is wrong, and keeps trying', async () => {
    const p = plant({ password: 'wrong-password' });
    const server = await p.start();
    const marker = await waitFor(async () => (await p.markers(server)).find((m) => m.category === 'login_refused'), 15_000, 'a login_refused marker');
    expect(marker.message).toContain('check username and password');
    expect(marker.message).toContain('user "tributary"');
    expect(await p.status(server)).toBe('unknown');
  });

  it('refuses a broker whose TLS certificate is not trusted, and reads once ca_file names its CA', async () => {
    const untrusted = plant({ port: BROKER.tlsPort, tls: true });
    const server = await untrusted.start();
    const marker = await waitFor(async () => (await untrusted.markers(server)).find((m) => m.category === 'certificate_untrusted'), 15_000, 'a certificate_untrusted marker');
    expect(marker.message).toMatch(/not trusted \((SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT_LOCALLY)\)/);
    expect(marker.message).toContain('ca_file');
    await server.close();
    servers.splice(0);

    const trusted = plant({ port: BROKER.tlsPort, tls: true, ca_file: BROKER.caFile });
    const again = await trusted.start();
    await waitFor(async () => (await trusted.status(again)) === 'running', 15_000, 'the TLS receiver to subscribe');
    await publish(`${trusted.prefix}/press1/x`, ['{"ts": 1767600000000, "v": 1}']);
    await waitFor(() => trusted.rows().length === 1, 15_000, 'the row over TLS');
  });

  it('reads plain values into the named column (user limited to allowed/)', async () => {
    // Mosquitto grants a subscription the ACL forbids and then delivers nothing; brokers that
    // refuse it (SUBACK 0x87) get a not_authorized marker on the stream.
    const id = crypto.randomBytes(4).toString('hex');
    const p = plant({ username: BROKER.limited.username, password: BROKER.limited.password }, { topic: `allowed/${id}/oven2`, payload_format: 'value', value_field: 'temperature', timestamp_field: undefined, timestamp_unit: undefined });
    const server = await p.start();
    await waitFor(async () => (await p.status(server)) === 'running', 15_000, 'the receiver to subscribe');
    await publish(`allowed/${id}/oven2`, ['215.5', 'Fault']);
    const rows = await waitFor(() => p.rows().length === 2 && p.rows(), 15_000, 'the oven rows');
    expect(rows.map((r) => [r.temperature, r.topic])).toEqual([
      ['215.5', `allowed/${id}/oven2`],
      ['Fault', `allowed/${id}/oven2`],
    ]);
  });
});
