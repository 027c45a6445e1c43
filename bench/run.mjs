#!/usr/bin/env node
// End-to-end throughput benchmark: folder → parse → convert_timestamps → encrypted remotedatapost →
// acknowledged by a loopback ingest server, against the real headless server (dist/electron/serve.js).
// Usage: npm run bench [-- --rows 100000,1000000,10000000 --files 4 --single-file-rows 1000000 --skip-breakdown --skip-mqtt --mqtt-rows 200000 --profile <dir> --out <file>]
// After the multi-file sizes it drops one single big file (--single-file-rows, default 1,000,000;
// 0 skips it): one big file, read by both parse threads (decision 0024). `--single-file` runs only that.
// The MQTT run (bench/mqtt.mjs) needs the Mosquitto of scripts/ci/start-mosquitto.sh; without it it is skipped.
// --quality both (default) | on | off: each multi-file size with the data-quality watch's default checks
// off, then on (docs/data-quality.md, Cost); the single big file and MQTT run with them on.
// --profile writes a V8 CPU profile per server thread to <dir> (bench/profile-summary.mjs reads them).
// Reports rows/s, MB/s, CPU seconds per million rows, peak RSS, API p50/p99 during the run, as a
// table and as JSON in bench/results/.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startIngestServer } from '../dist/electron/ingest/ingest-server.js';
import { ROOT, prepareDrop, procStats, sleep, startBenchServer } from './bench-server.mjs';
import { mqttRuns } from './mqtt.mjs';
import { stageBreakdown } from './stages.mjs';
import { FORCE_OPTION, requireQuietMachine } from './quiet.mjs';

const { values } = parseArgs({ options: { ...FORCE_OPTION,  rows: { type: 'string', default: '100000,1000000' }, files: { type: 'string', default: '4' }, 'single-file': { type: 'boolean', default: false }, 'single-file-rows': { type: 'string', default: '1000000' }, 'skip-breakdown': { type: 'boolean', default: false }, profile: { type: 'string' }, out: { type: 'string' }, 'skip-mqtt': { type: 'boolean', default: false }, 'mqtt-rows': { type: 'string', default: '200000' }, quality: { type: 'string', default: 'both' } } });
requireQuietMachine(values.force);
const sizes = values['single-file'] ? [] : values.rows.split(',').map(Number);
const singleFileRows = Number(values['single-file-rows']);
const KEY_ID = 'bench@tributary.local';
const API_KEY = 'bench-api-key';

function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Turns every check off: no digest is made, the watch only notes arrivals. */
const QUALITY_OFF = [{ filter_stream: ['*'], gap: false, clock: false, schema: false }];

async function runOnce(rows, files, quality = 'on') {
  const dataDirectory = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-bench-'));
  const csv = prepareDrop(dataDirectory, rows, files);
  const ingest = await startIngestServer({ keys: { [KEY_ID]: API_KEY }, countOnly: true });
  const server = await startBenchServer(dataDirectory, { nodeFlags: values.profile ? ['--cpu-prof', '--cpu-prof-dir', values.profile] : [] });
  await server.configure({
    data_receiver: [csv.receiver],
    transforms: [{ transform_name: 'tz', transform_type: 'convert_timestamps', filter_stream: ['*'], field_names: ['time'], timezone: 'UTC' }],
    data_transmit: [{ transmit_name: 'cloud', transmit_type: 'remotedatapost', base_url: ingest.url, API_key: API_KEY, API_key_ID: KEY_ID, timeout: 60, poll_interval: 1, max_request_records: 3000, max_buffer_mb: 16384 }],
    ...(quality === 'off' ? { data_quality: QUALITY_OFF } : {}),
  });
  // The drop arrives at a running, idle agent (as in a plant): wait until its services run and
  // their start-up (threads, folder watcher) is over, instead of timing the start-up too.
  await server.waitUntilRunning();
  await sleep(2000);
  const poller = await server.pollStatus(50);
  const before = procStats(server.pid);
  const started = performance.now();
  const benchCpu = process.cpuUsage();
  csv.deliver();
  // When the first rows reached the ingest server: the agent's look at the drop (a file is read once
  // it was the same on two looks) and its first chunk, apart from the throughput that follows.
  let firstRowsAt;
  while (ingest.receivedCount() < rows) {
    if (firstRowsAt === undefined && ingest.receivedCount() > 0) firstRowsAt = performance.now();
    await sleep(firstRowsAt === undefined ? 10 : 100);
  }
  const seconds = (performance.now() - started) / 1000;
  const benchCpuUsed = process.cpuUsage(benchCpu);
  const latencies = await poller.stop();
  const after = procStats(server.pid);
  await server.stop();
  await ingest.close();
  fs.rmSync(dataDirectory, { recursive: true, force: true });
  latencies.sort((a, b) => a - b);
  const { bytes } = csv;
  return {
    rows,
    files,
    quality_checks: quality,
    csv_mb: +(bytes / 1e6).toFixed(1),
    seconds: +seconds.toFixed(2),
    first_rows_seconds: +(((firstRowsAt ?? performance.now()) - started) / 1000).toFixed(2),
    rows_per_second: Math.round(rows / seconds),
    mb_per_second: +(bytes / 1e6 / seconds).toFixed(2),
    // Server CPU seconds per million rows = server CPU µs per row.
    cpu_seconds_per_million_rows: after && before ? +(((after.cpuSeconds - before.cpuSeconds) / rows) * 1e6).toFixed(2) : null,
    bench_cpu_seconds_per_million_rows: +(((benchCpuUsed.user + benchCpuUsed.system) / 1e6 / rows) * 1e6).toFixed(2),
    peak_rss_mb: after ? Math.round(after.peakRss / 1e6) : null,
    api_p50_ms: +percentile(latencies, 50).toFixed(1),
    api_p99_ms: +percentile(latencies, 99).toFixed(1),
    api_samples: latencies.length,
  };
}

const results = [];
for (const rows of sizes) {
  for (const quality of values.quality === 'both' ? ['off', 'on'] : [values.quality]) {
    process.stderr.write(`bench: ${rows} rows, quality checks ${quality} …\n`);
    results.push(await runOnce(rows, Number(values.files), quality));
  }
}
if (singleFileRows > 0) {
  process.stderr.write(`bench: ${singleFileRows} rows in a single file …\n`);
  results.push(await runOnce(singleFileRows, 1));
}
const breakdown = values['skip-breakdown'] ? undefined : await stageBreakdown(200_000);
const mqtt = values['skip-mqtt'] ? undefined : await mqttRuns(Number(values['mqtt-rows']));
const machine = { cpus: os.cpus().length, cpu_model: os.cpus()[0]?.model, memory_gb: Math.round(os.totalmem() / 1e9), node: process.version, date: new Date().toISOString() };
fs.mkdirSync(path.join(ROOT, 'bench', 'results'), { recursive: true });
const out = values.out ? path.resolve(values.out) : path.join(ROOT, 'bench', 'results', `bench-${machine.date.slice(0, 19).replace(/[:T]/g, '-')}.json`);
fs.writeFileSync(out, JSON.stringify({ machine, results, breakdown, mqtt }, null, 2));
console.table(results);
if (breakdown) console.table(breakdown);
if (mqtt) console.table(mqtt);
console.log(`results: ${path.relative(ROOT, out)}`);
