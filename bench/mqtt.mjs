#!/usr/bin/env node
// MQTT throughput: CSV drop → parse → mqtt transmit (QoS 1, a record leaves the outbox after
// PUBACK) → the Mosquitto of scripts/ci/start-mosquitto.sh → a subscriber in this process that
// counts records. One run per message_format (record: a message per record; array: JSON arrays).
// Part of `npm run bench`; alone: `npm run build:node && node bench/mqtt.mjs [--rows 200000]`.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { connectAsync } from 'mqtt';
import { prepareDrop, procStats, sleep, startBenchServer } from './bench-server.mjs';

const BROKER = { host: '127.0.0.1', port: 51883, username: 'tributary', password: 'tributary-mqtt-pass' };

async function runOnce(rows, format, files = 2) {
  const dataDirectory = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-bench-mqtt-'));
  const csv = prepareDrop(dataDirectory, rows, files);
  const prefix = `bench/${crypto.randomBytes(4).toString('hex')}`;
  const subscriber = await connectAsync({ ...BROKER, protocolVersion: 5, clientId: `bench-${prefix}`, reconnectPeriod: 0 });
  let received = 0;
  subscriber.on('message', (_topic, payload) => {
    received += payload[0] === 0x5b /* [ */ ? JSON.parse(payload.toString('utf8')).length : 1;
  });
  await subscriber.subscribeAsync(`${prefix}/#`, { qos: 1 });

  const server = await startBenchServer(dataDirectory);
  await server.configure({
    data_receiver: [csv.receiver],
    transforms: [],
    data_transmit: [{
      transmit_name: 'uns', transmit_type: 'mqtt', filter_stream: ['*'], ...BROKER, topic: `${prefix}/{asset}/{stream_type}`,
      qos: 1, message_format: format, max_request_records: 1000, max_request_size_bytes: 1_048_576, poll_interval: 1, max_buffer_mb: 16384,
    }],
  });
  await server.waitUntilRunning();
  await sleep(1000);
  const before = procStats(server.pid)?.cpuSeconds;
  const started = performance.now();
  csv.deliver();
  while (received < rows) await sleep(50);
  const seconds = (performance.now() - started) / 1000;
  const after = procStats(server.pid)?.cpuSeconds;
  await server.stop();
  await subscriber.endAsync();
  fs.rmSync(dataDirectory, { recursive: true, force: true });
  return {
    message_format: format,
    rows,
    seconds: +seconds.toFixed(2),
    rows_per_second: Math.round(rows / seconds),
    agent_cpu_us_per_row: after !== undefined && before !== undefined ? +(((after - before) / rows) * 1e6).toFixed(1) : null,
  };
}

/** Both formats; undefined (with a note) when the broker is not running. */
export async function mqttRuns(rows) {
  try {
    const probe = await connectAsync({ ...BROKER, reconnectPeriod: 0, connectTimeout: 2000 });
    await probe.endAsync();
  } catch {
    process.stderr.write('bench: MQTT run skipped: no broker on 127.0.0.1:51883 (run bash scripts/ci/start-mosquitto.sh)\n');
    return undefined;
  }
  const results = [];
  for (const format of ['record', 'array']) {
    process.stderr.write(`bench: MQTT ${format} messages, ${rows} rows …\n`);
    results.push(await runOnce(rows, format));
  }
  return results;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { rows: { type: 'string', default: '200000' } } });
  console.table(await mqttRuns(Number(values.rows)));
}
