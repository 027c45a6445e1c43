#!/usr/bin/env node
// MQTT throughput: CSV drop → parse → mqtt transmit (QoS 1, a record leaves the outbox after
// PUBACK) → the Mosquitto of scripts/ci/start-mosquitto.sh → a subscriber in this process that
// counts records. One run per message_format (record: a message per record; array: JSON arrays).
// Part of `npm run bench`; alone: `npm run build:node && node bench/mqtt.mjs [--rows 200000]`.
import { execFileSync, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { connectAsync } from 'mqtt';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BROKER = { host: '127.0.0.1', port: 51883, username: 'tributary', password: 'tributary-mqtt-pass' };
const TICKS = 100;
// At least 16 characters: shorter API tokens are refused.
const TOKEN = 'bench-token-0123456789';

function cpuSeconds(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(stat[11]) + Number(stat[12])) / TICKS;
  } catch {
    return undefined;
  }
}

async function runOnce(rows, format, files = 2) {
  const dataDirectory = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-bench-mqtt-'));
  const drop = path.join(dataDirectory, 'drop');
  fs.mkdirSync(drop);
  const perFile = Math.ceil(rows / files);
  for (let f = 0; f < files; f += 1)
    execFileSync(process.execPath, [path.join(ROOT, 'bench', 'csv-data.mjs'), path.join(dataDirectory, `m${f}.csv.tmp`), String(f * perFile), String(Math.min(perFile, rows - f * perFile))]);
  const prefix = `bench/${crypto.randomBytes(4).toString('hex')}`;
  const subscriber = await connectAsync({ ...BROKER, protocolVersion: 5, clientId: `bench-${prefix}`, reconnectPeriod: 0 });
  let received = 0;
  subscriber.on('message', (_topic, payload) => {
    received += payload[0] === 0x5b /* [ */ ? JSON.parse(payload.toString('utf8')).length : 1;
  });
  await subscriber.subscribeAsync(`${prefix}/#`, { qos: 1 });

  const child = spawn(process.execPath, ['--max-semi-space-size=4', path.join(ROOT, 'dist/electron/serve.js'), '--data-dir', dataDirectory, '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, TRIBUTARY_API_TOKEN: TOKEN } });
  const port = await new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => {
      const m = /:(\d+)\/\?token=/.exec(String(d));
      if (m) resolve(Number(m[1]));
    });
    child.on('exit', (code) => reject(new Error(`server exited ${code}`)));
  });
  const api = (method, p, body) => fetch(`http://127.0.0.1:${port}${p}`, { method, headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: body && JSON.stringify(body) });
  const config = {
    data_receiver: [{
      data_receiver_name: 'bench', protocol: 'localfile', poll_interval: 1, connections: [{ root_path: drop }],
      streams: Array.from({ length: files }, (_, f) => ({ asset: `Machine_${f}`, stream_type: 'process', file_filter: [`m${f}.csv`] })),
      parsers: [{ parser_name: 'csv', parser_type: 'spreadsheet', options: { parse: { parse_timestamps: [{ field_name: 'time', format: '%Y-%m-%d %H:%M:%S' }] } } }],
    }],
    transforms: [],
    data_transmit: [{
      transmit_name: 'uns', transmit_type: 'mqtt', filter_stream: ['*'], ...BROKER, topic: `${prefix}/{asset}/{stream_type}`,
      qos: 1, message_format: format, max_request_records: format === 'array' ? 1000 : 1000, max_request_size_bytes: 1_048_576, poll_interval: 1, max_buffer_mb: 16384,
    }],
  };
  const saved = await (await api('POST', '/v1/config', config)).json();
  if (!saved.success) throw new Error(JSON.stringify(saved));
  for (;;) {
    const services = Object.values((await (await api('GET', '/v1/status')).json()).response?.agent?.services ?? {});
    if (services.length > 0 && services.every((s) => s.status === 'running')) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  await new Promise((r) => setTimeout(r, 1000));
  const before = cpuSeconds(child.pid);
  const started = performance.now();
  for (let f = 0; f < files; f += 1) fs.renameSync(path.join(dataDirectory, `m${f}.csv.tmp`), path.join(drop, `m${f}.csv`));
  while (received < rows) await new Promise((r) => setTimeout(r, 50));
  const seconds = (performance.now() - started) / 1000;
  const after = cpuSeconds(child.pid);
  child.kill('SIGTERM');
  await new Promise((r) => child.on('exit', r));
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
