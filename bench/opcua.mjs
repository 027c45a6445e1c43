#!/usr/bin/env node
// OPC UA benchmark: a real node-opcua server (this process) with 5,000 Double tags on 50 machines,
// all changing every second, read by subscription at 1 s sampling by the real headless agent
// (dist/electron/serve.js, a child process) into the csv transmit.
// Usage: npm run build:node && npm run build:testing && node bench/opcua.mjs [--tags 5000 --machines 50 --seconds 30 --sampling 1000 --source-time read|change --profile <dir> --upload]
// --sampling: the tags change and are sampled every this many ms (a line of 50,000 tags at 5 s: --tags 50000 --sampling 5000).
// --source-time read (default): the server reads a new value when it samples and stamps it then
// (Kepware's scan, an S7-1500's process image; the tags of one machine share a scan time): the
// latency is what the server's publishing, the transport and the agent add (decision 0058).
// --source-time change: every tag changes at once each interval, stamped with that moment (a device
// that stamps its own values); the server samples each tag on its own timer, so a value waits up to
// one sampling interval in the server before anything is sent: a phase no client can change, random
// per run, reported apart (source → server sampling, server sampling → capture).
// --upload adds a remotedatapost transmit of every stream to a loopback ingest server (this
// process), as a plant that sends its data to the cloud has: its encoding and uploads are measured too.
// Reports the agent's CPU (% of one core, from /proc), peak RSS, values/s, and latency from the
// server's source timestamp to the record being captured (capturetime) and to the row being in the
// outbox CSV file (what a consumer sees; includes the csv transmit's 1 s poll).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
// The test server is test-only code: built apart from the product, into dist-testing/.
import { OpcuaTestServer } from '../dist-testing/electron/testing/opcua/opcua-test-server.js';
import { startIngestServer } from '../dist/electron/ingest/ingest-server.js';
import { ROOT, procStats, startBenchServer } from './bench-server.mjs';
import { FORCE_OPTION, requireQuietMachine } from './quiet.mjs';

const { values } = parseArgs({ options: { ...FORCE_OPTION,  tags: { type: 'string', default: '5000' }, machines: { type: 'string', default: '50' }, seconds: { type: 'string', default: '30' }, profile: { type: 'string' }, upload: { type: 'boolean', default: false }, sampling: { type: 'string', default: '1000' }, 'source-time': { type: 'string', default: 'read' } } });
requireQuietMachine(values.force);
const TAGS = Number(values.tags);
const MACHINES = Number(values.machines);
const SECONDS = Number(values.seconds);
const PER_MACHINE = Math.ceil(TAGS / MACHINES);
const SAMPLING_MS = Number(values.sampling);
const STAMPED_WHEN_READ = values['source-time'] === 'read';
if (!['read', 'change'].includes(values['source-time'])) throw new Error('--source-time is read or change');

const percentile = (sorted, p) => (sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]);
const micros = (iso) => Date.parse(iso.slice(0, 23) + 'Z') * 1000 + Number(iso.slice(23, 26));

const dataDirectory = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-bench-opcua-'));
const plc = await OpcuaTestServer.start({ pkiFolder: path.join(dataDirectory, 'server-pki') });
const machines = Array.from({ length: MACHINES }, (_, m) => plc.addDoubles(`M${m}_T`, PER_MACHINE, { stampedWhenRead: STAMPED_WHEN_READ }).map((id) => id.slice('ns=2;s='.length)));
// Change mode: when the server sampled each machine's values of a tick (the last of its tags), by
// machine and source time. It splits the latency into what the server held a value before its
// sampling timer took it (the run's phase) and what publishing, the transport and the agent add.
const sampledAt = new Map();
if (!STAMPED_WHEN_READ) {
  const { MonitoredItem } = await import('node-opcua-server');
  const recordValue = MonitoredItem.prototype.recordValue;
  MonitoredItem.prototype.recordValue = function (dataValue, ...rest) {
    const id = this.node?.nodeId?.value;
    const machine = typeof id === 'string' && id.startsWith('M') ? id.slice(1, id.indexOf('_')) : undefined;
    if (machine !== undefined && dataValue.sourceTimestamp) {
      const key = `${machine}:${dataValue.sourceTimestamp.getTime()}`;
      const now = Date.now();
      if ((sampledAt.get(key) ?? 0) < now) sampledAt.set(key, now);
    }
    return recordValue.call(this, dataValue, ...rest);
  };
}
let tick = 0;
const ticker = STAMPED_WHEN_READ
  ? undefined
  : setInterval(() => {
      tick += 1;
      const now = new Date();
      machines.forEach((names) => names.forEach((name, i) => plc.set(name, Math.sin(tick / 10 + i) * 100, { sourceTimestamp: now })));
    }, SAMPLING_MS);

const KEY_ID = 'bench@tributary.local';
const API_KEY = 'bench-api-key';
const ingest = values.upload ? await startIngestServer({ keys: { [KEY_ID]: API_KEY }, countOnly: true }) : undefined;
const upload = ingest ? [{ transmit_name: 'cloud', transmit_type: 'remotedatapost', filter_stream: ['*'], base_url: ingest.url, API_key: API_KEY, API_key_ID: KEY_ID, timeout: 30, poll_interval: 1 }] : [];
const agent = await startBenchServer(dataDirectory, { nodeFlags: values.profile ? ['--cpu-prof', '--cpu-prof-dir', values.profile] : [] });
const outbox = path.join(dataDirectory, 'outbox');
await agent.configure({
  data_receiver: [
    {
      data_receiver_name: 'bench_plc',
      protocol: 'opcua',
      read_mode: 'subscription',
      sampling_interval_ms: SAMPLING_MS,
      connections: [{ host: '127.0.0.1', port: plc.port, timeout: 10 }],
      streams: machines.map((names, m) => ({ asset: `Machine_${m}`, stream_type: 'process', opcua_tags: names.map((name) => ({ name: `ns=2;s=${name}`, exportname: name })) })),
    },
  ],
  transforms: [],
  data_transmit: [{ transmit_name: 'archive', transmit_type: 'csv', filter_stream: ['*'], directory: outbox, poll_interval: 1 }, ...upload],
});

// Rows appended to the outbox files since the last look, with the time we saw them.
const offsets = new Map();
function newRows() {
  const rows = [];
  if (!fs.existsSync(outbox)) return rows;
  const seenAt = Date.now() * 1000;
  for (const name of fs.readdirSync(outbox)) {
    const file = path.join(outbox, name);
    const start = offsets.get(name) ?? 0;
    const size = fs.statSync(file).size;
    if (size <= start) continue;
    const text = fs.readFileSync(file).subarray(start, size).toString('utf8');
    const complete = text.lastIndexOf('\n') + 1;
    offsets.set(name, start + complete);
    for (const row of text.slice(0, complete).split('\n')) {
      if (!row || row.startsWith('timestamp,')) continue;
      const [timestamp, capturetime] = row.split(',');
      const source = micros(timestamp);
      // Files are Machine_<m>__process[.n].csv: the key of the server's sampling (change mode).
      const sampled = sampledAt.get(`${/^Machine_(\d+)__/.exec(name)?.[1]}:${Math.floor(source / 1000)}`);
      rows.push({ source, capture: micros(capturetime), sampled: sampled === undefined ? undefined : sampled * 1000, seenAt, values: (row.split(',').length - 3) / 2 });
    }
  }
  return rows;
}

process.stdout.write(`agent at ${agent.url}; waiting for all ${MACHINES} machines to deliver …\n`);
const warmup = Date.now() + 120_000;
while (Date.now() < warmup && (!fs.existsSync(outbox) || fs.readdirSync(outbox).length < MACHINES)) await new Promise((r) => setTimeout(r, 500));
newRows();
await new Promise((r) => setTimeout(r, 3000));
newRows();

const before = procStats(agent.pid);
// The test server runs in this process: its CPU and event-loop delay show when it, not the agent,
// is what delays values (on 2 cores the two share the machine).
const serverCpuBefore = process.cpuUsage();
const serverLoop = monitorEventLoopDelay({ resolution: 20 });
serverLoop.enable();
const uploadedBefore = ingest?.receivedCount() ?? 0;
const started = Date.now();
const captured = [];
const seen = [];
const held = [];
const afterSampling = [];
let valuesCount = 0;
let records = 0;
while (Date.now() - started < SECONDS * 1000) {
  await new Promise((r) => setTimeout(r, 200));
  for (const row of newRows()) {
    records += 1;
    valuesCount += row.values;
    captured.push((row.capture - row.source) / 1000);
    seen.push((row.seenAt - row.source) / 1000);
    if (row.sampled !== undefined) {
      held.push((row.sampled - row.source) / 1000);
      afterSampling.push((row.capture - row.sampled) / 1000);
    }
  }
}
const elapsed = (Date.now() - started) / 1000;
const after = procStats(agent.pid);
const serverCpu = process.cpuUsage(serverCpuBefore);
serverLoop.disable();
captured.sort((a, b) => a - b);
seen.sort((a, b) => a - b);
held.sort((a, b) => a - b);
afterSampling.sort((a, b) => a - b);
const spread = (sorted) => ({ p50: percentile(sorted, 50), p95: percentile(sorted, 95), p99: percentile(sorted, 99), max: sorted.at(-1) });
const triple = (l) => (l.p50 === undefined || Number.isNaN(l.p50) ? '–' : `${l.p50.toFixed(0)} / ${l.p95.toFixed(0)} / ${l.p99.toFixed(0)}`);
const result = {
  date: new Date().toISOString(),
  machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, load: os.loadavg() },
  tags: MACHINES * PER_MACHINE,
  machines: MACHINES,
  sampling_ms: SAMPLING_MS,
  source_time: values['source-time'],
  seconds: elapsed,
  records_per_s: records / elapsed,
  values_per_s: valuesCount / elapsed,
  agent_cpu_percent_of_one_core: ((after.cpuSeconds - before.cpuSeconds) / elapsed) * 100,
  // Per value recorded: less dependent on how many values a busy machine's test server produced.
  agent_cpu_us_per_value: ((after.cpuSeconds - before.cpuSeconds) * 1e6) / valuesCount,
  agent_peak_rss_mb: after.peakRss / 1024 / 1024,
  agent_rss_mb_at_end: after.rss / 1024 / 1024,
  agent_threads: after.threads,
  server_cpu_percent_of_one_core: ((serverCpu.user + serverCpu.system) / 1e6 / elapsed) * 100,
  server_event_loop_delay_ms: { p50: serverLoop.percentile(50) / 1e6, p99: serverLoop.percentile(99) / 1e6, max: serverLoop.max / 1e6 },
  uploaded_records_per_s: ingest ? (ingest.receivedCount() - uploadedBefore) / elapsed : null,
  latency_ms_source_to_capture: spread(captured),
  latency_ms_source_to_outbox_file: spread(seen),
  // Change mode only: the part the server held a value until its sampling timer took it, and the rest.
  latency_ms_source_to_server_sampling: spread(held),
  latency_ms_server_sampling_to_capture: spread(afterSampling),
};
console.table({
  'tags / machines': `${result.tags} / ${MACHINES}`,
  'values/s (expected)': `${result.values_per_s.toFixed(0)} (${(result.tags * 1000) / SAMPLING_MS})`,
  'agent CPU (% of one core)': result.agent_cpu_percent_of_one_core.toFixed(1),
  'agent CPU µs per value': result.agent_cpu_us_per_value.toFixed(1),
  'agent peak RSS (MiB)': result.agent_peak_rss_mb.toFixed(0),
  'agent RSS at the end (MiB)': result.agent_rss_mb_at_end.toFixed(0),
  'source → capture p50/p95/p99 ms': triple(result.latency_ms_source_to_capture),
  'source → outbox file p50/p95/p99 ms': triple(result.latency_ms_source_to_outbox_file),
  '  of it: source → server sampling p50/p95/p99 ms': triple(result.latency_ms_source_to_server_sampling),
  '  of it: server sampling → capture p50/p95/p99 ms': triple(result.latency_ms_server_sampling_to_capture),
  'agent threads': result.agent_threads,
  'test server + bench CPU (% of one core)': result.server_cpu_percent_of_one_core.toFixed(1),
  'test server event-loop delay p50/p99/max ms': `${result.server_event_loop_delay_ms.p50.toFixed(0)} / ${result.server_event_loop_delay_ms.p99.toFixed(0)} / ${result.server_event_loop_delay_ms.max.toFixed(0)}`,
  ...(ingest ? { 'uploaded records/s': result.uploaded_records_per_s.toFixed(0) } : {}),
  'load average (1 min)': os.loadavg()[0].toFixed(2),
});
fs.mkdirSync(path.join(ROOT, 'bench/results'), { recursive: true });
const out = path.join(ROOT, 'bench/results', `opcua-${result.date.replace(/[:.]/g, '-')}.json`);
fs.writeFileSync(out, JSON.stringify(result, null, 2));
process.stdout.write(`written ${path.relative(ROOT, out)}\n`);

if (ticker) clearInterval(ticker);
await agent.stop();
await plc.stop();
await ingest?.close();
fs.rmSync(dataDirectory, { recursive: true, force: true });
