#!/usr/bin/env node
// MQTT throughput: CSV drop → parse → mqtt transmit (QoS 1, a record leaves the outbox after
// PUBACK) → the Mosquitto of scripts/ci/start-mosquitto.sh → a subscriber in this process that
// counts records. One run per message_format (record: a message per record; array: JSON arrays)
// and one as a Sparkplug B edge node (sparkplug_b: DDATA of up to 1000 records, counted by their
// metrics; every CHECK_EVERY-th message is decoded by Eclipse Tahu's codec).
// Part of `npm run bench`; alone: `npm run build:node && node bench/mqtt.mjs [--rows 200000]
// [--format array] [--profile DIR]` (--profile: V8 CPU profiles of the agent's threads in DIR).
// The broker and the subscriber share the agent's cores: their CPU per row is reported too.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createRequire } from 'node:module';
import { connectAsync } from 'mqtt';
import { prepareDrop, procStats, sleep, startBenchServer } from './bench-server.mjs';
import { FORCE_OPTION, requireQuietMachine } from './quiet.mjs';

const BROKER = { host: '127.0.0.1', port: 51883, username: 'tributary', password: 'tributary-mqtt-pass' };
const RECORD_ID = Buffer.from('"record_id":');
// Every this many messages the subscriber parses one and checks the count (below).
const CHECK_EVERY = 25;

/**
 * Records in a message, counted as occurrences of "record_id": (one per record in the bench's
 * data, which has no such column): JSON.parse of every array cost the subscriber ~5 µs a record on
 * the cores the agent needs. Every CHECK_EVERY-th message is parsed and must agree.
 */
function recordsIn(payload, check) {
  let count = 0;
  for (let at = payload.indexOf(RECORD_ID); at !== -1; at = payload.indexOf(RECORD_ID, at + RECORD_ID.length)) count += 1;
  if (check) {
    const parsed = JSON.parse(payload.toString('utf8'));
    const expected = Array.isArray(parsed) ? parsed.length : 1;
    if (expected !== count) throw new Error(`bench subscriber: counted ${count} records in a message of ${expected}`);
  }
  return count;
}

const tahu = createRequire(import.meta.url)('sparkplug-payload').get('spBv1.0');
let columns = 0;

/** Top-level field-2 entries (metrics) of a Sparkplug payload, skipped over without decoding them. */
function metricsIn(payload) {
  let count = 0;
  let at = 0;
  const varint = () => {
    let value = 0;
    for (let shift = 1; ; shift *= 128) {
      const b = payload[at++];
      value += (b & 0x7f) * shift;
      if (b < 0x80) return value;
    }
  };
  while (at < payload.length) {
    const tag = varint();
    const wire = tag & 7;
    if (wire === 0) varint();
    else if (wire === 2) {
      const length = varint();
      at += length;
      if (tag >>> 3 === 2) count += 1;
    } else if (wire === 1) at += 8;
    else at += 4;
  }
  return count;
}

/** Records of a DDATA: its metrics over the columns of a row (from the first message Tahu decodes). */
function sparkplugRecordsIn(payload, check) {
  if (check || columns === 0) {
    const names = tahu.decodePayload(payload).metrics.map((m) => m.name);
    columns ||= new Set(names).size;
    if (names.length !== metricsIn(payload)) throw new Error('bench subscriber: metric count differs from Tahu');
  }
  return metricsIn(payload) / columns;
}

/** CPU seconds of the broker (the oldest mosquitto process), if it runs on this machine. */
function brokerCpuSeconds() {
  const pid = fs.readdirSync('/proc').filter((entry) => /^\d+$/.test(entry)).map(Number).sort((a, b) => a - b)
    .find((pid) => { try { return fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'mosquitto'; } catch { return false; } });
  return pid === undefined ? undefined : procStats(pid)?.cpuSeconds;
}

async function runOnce(rows, format, { files = 2, profile } = {}) {
  const dataDirectory = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-bench-mqtt-'));
  const csv = prepareDrop(dataDirectory, rows, files);
  const prefix = `bench/${crypto.randomBytes(4).toString('hex')}`;
  const subscriber = await connectAsync({ ...BROKER, protocolVersion: 5, clientId: `bench-${prefix}`, reconnectPeriod: 0 });
  let received = 0;
  let messages = 0;
  const sparkplug = format === 'sparkplug_b';
  const group = prefix.replace('/', '-');
  subscriber.on('message', (topic, payload) => {
    if (sparkplug && !topic.includes('/DDATA/')) return;
    messages += 1;
    received += sparkplug ? sparkplugRecordsIn(payload, messages % CHECK_EVERY === 1) : recordsIn(payload, messages % CHECK_EVERY === 1);
  });
  await subscriber.subscribeAsync(sparkplug ? `spBv1.0/${group}/#` : `${prefix}/#`, { qos: 1 });
  const shape = sparkplug ? { payload_format: 'sparkplug_b', group_id: group, edge_node_id: 'bench' } : { topic: `${prefix}/{asset}/{stream_type}`, message_format: format };

  const server = await startBenchServer(dataDirectory, { nodeFlags: profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : [] });
  await server.configure({
    data_receiver: [csv.receiver],
    transforms: [],
    data_transmit: [{
      transmit_name: 'uns', transmit_type: 'mqtt', filter_stream: ['*'], ...BROKER, ...shape,
      qos: 1, max_request_records: 1000, max_request_size_bytes: 1_048_576, poll_interval: 1, max_buffer_mb: 16384,
    }],
  });
  await server.waitUntilRunning();
  await sleep(1000);
  const before = procStats(server.pid)?.cpuSeconds;
  const brokerBefore = brokerCpuSeconds();
  const subscriberBefore = process.cpuUsage();
  const started = performance.now();
  csv.deliver();
  while (received < rows) await sleep(50);
  const seconds = (performance.now() - started) / 1000;
  const after = procStats(server.pid)?.cpuSeconds;
  const brokerAfter = brokerCpuSeconds();
  const subscriberCpu = process.cpuUsage(subscriberBefore);
  await server.stop();
  await subscriber.endAsync();
  fs.rmSync(dataDirectory, { recursive: true, force: true });
  return {
    message_format: format,
    rows,
    seconds: +seconds.toFixed(2),
    rows_per_second: Math.round(rows / seconds),
    agent_cpu_us_per_row: after !== undefined && before !== undefined ? +(((after - before) / rows) * 1e6).toFixed(1) : null,
    broker_cpu_us_per_row: brokerAfter !== undefined && brokerBefore !== undefined ? +(((brokerAfter - brokerBefore) / rows) * 1e6).toFixed(1) : null,
    subscriber_cpu_us_per_row: +((subscriberCpu.user + subscriberCpu.system) / rows).toFixed(1),
  };
}

/** Both formats (or the ones given); undefined (with a note) when the broker is not running. */
export async function mqttRuns(rows, { formats = ['record', 'array', 'sparkplug_b'], profile } = {}) {
  try {
    const probe = await connectAsync({ ...BROKER, reconnectPeriod: 0, connectTimeout: 2000 });
    await probe.endAsync();
  } catch {
    process.stderr.write('bench: MQTT run skipped: no broker on 127.0.0.1:51883 (run bash scripts/ci/start-mosquitto.sh)\n');
    return undefined;
  }
  const results = [];
  for (const format of formats) {
    process.stderr.write(`bench: MQTT ${format} messages, ${rows} rows …\n`);
    results.push(await runOnce(rows, format, { profile }));
  }
  return results;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { ...FORCE_OPTION,  rows: { type: 'string', default: '200000' }, format: { type: 'string', multiple: true }, profile: { type: 'string' } } });
  requireQuietMachine(values.force);
  console.table(await mqttRuns(Number(values.rows), { formats: values.format ?? ['record', 'array', 'sparkplug_b'], profile: values.profile }));
}
