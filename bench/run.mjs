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
import { ROOT } from './bench-server.mjs';
import { endToEnd } from './end-to-end.mjs';
import { mqttRuns } from './mqtt.mjs';
import { stageBreakdown } from './stages.mjs';
import { FORCE_OPTION, requireQuietMachine } from './quiet.mjs';

const { values } = parseArgs({ options: { ...FORCE_OPTION,  rows: { type: 'string', default: '100000,1000000' }, files: { type: 'string', default: '4' }, 'single-file': { type: 'boolean', default: false }, 'single-file-rows': { type: 'string', default: '1000000' }, 'skip-breakdown': { type: 'boolean', default: false }, profile: { type: 'string' }, out: { type: 'string' }, 'skip-mqtt': { type: 'boolean', default: false }, 'mqtt-rows': { type: 'string', default: '200000' }, quality: { type: 'string', default: 'both' } } });
requireQuietMachine(values.force);
const sizes = values['single-file'] ? [] : values.rows.split(',').map(Number);
const singleFileRows = Number(values['single-file-rows']);
const results = [];
for (const rows of sizes) {
  for (const quality of values.quality === 'both' ? ['off', 'on'] : [values.quality]) {
    process.stderr.write(`bench: ${rows} rows, quality checks ${quality} …\n`);
    results.push(await endToEnd(rows, Number(values.files), { quality, profile: values.profile }));
  }
}
if (singleFileRows > 0) {
  process.stderr.write(`bench: ${singleFileRows} rows in a single file …\n`);
  results.push(await endToEnd(singleFileRows, 1, { profile: values.profile }));
}
const breakdown = values['skip-breakdown'] ? undefined : await stageBreakdown(200_000);
const mqtt = values['skip-mqtt'] ? undefined : await mqttRuns(Number(values['mqtt-rows']));
const machine = { cpus: os.cpus().length, cpu_model: os.cpus()[0]?.model, memory_gb: Math.round(os.totalmem() / 1e9), node: process.version, date: new Date().toISOString() };
fs.mkdirSync(path.join(ROOT, 'bench', 'results'), { recursive: true });
const out = values.out ? path.resolve(values.out) : path.join(ROOT, 'bench', 'results', `bench-${machine.date.slice(0, 19).replace(/[:T]/g, '-')}.json`);
fs.writeFileSync(out, JSON.stringify({ machine, results, breakdown, mqtt }, null, 2));
console.table(results.map(({ threads: _threads, ...figures }) => figures));
// Where each run's server CPU went, per thread (CPU s per million rows, the busiest first).
for (const { rows, files, quality_checks: quality, threads } of results) {
  console.log(`threads, ${rows} rows in ${files} file(s), quality ${quality}: ${threads.slice(0, 8).map((t) => `${t.thread} ${t.cpu_seconds_per_million_rows}`).join(', ')}`);
}
if (breakdown) console.table(breakdown);
if (mqtt) console.table(mqtt);
console.log(`results: ${path.relative(ROOT, out)}`);
