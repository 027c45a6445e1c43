#!/usr/bin/env node
// Bench of the document parsers (issue 35), after `npm run build:node`:
// 1. a 100,000-row, 8-column .xlsx read by the excel parser and by pandas read_excel (openpyxl) on
//    the same file in the same run (Debian's python3-pandas, python3-openpyxl);
// 2. peak RSS of the excel parser reading a big workbook (--big-rows, default 2,500,000: ~80 MB);
// 3. NDJSON end to end: folder → json parser (lines) → remotedatapost → loopback ingest server,
//    against the real headless server; rows/s from the first row received to the last (a document
//    is read once it has been unchanged for the settle time, reported apart).
// Usage: node bench/documents.mjs [--rows 100000] [--big-rows 2500000] [--ndjson-rows 1000000] [--skip-big] [--skip-xlsx]
//   [--profile DIR] (V8 CPU profiles of the server's threads in DIR; summarize with bench/profile-summary.mjs)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startIngestServer } from '../dist/electron/ingest/ingest-server.js';
import { ROOT, procStats, sleep, startBenchServer } from './bench-server.mjs';
import { writeNdjson, writeXlsx } from './document-data.mjs';
import { FORCE_OPTION, requireQuietMachine } from './quiet.mjs';

const { values } = parseArgs({ options: { ...FORCE_OPTION,  rows: { type: 'string', default: '100000' }, 'big-rows': { type: 'string', default: '2500000' }, 'ndjson-rows': { type: 'string', default: '1000000' }, 'skip-big': { type: 'boolean', default: false }, 'skip-xlsx': { type: 'boolean', default: false }, profile: { type: 'string' } } });
requireQuietMachine(values.force);
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-documents-bench-'));
const readXlsx = (file) => JSON.parse(execFileSync(process.execPath, [path.join(ROOT, 'bench', 'xlsx-read.mjs'), file, '{}']).toString());
const PANDAS = 'import sys, time, pandas as pd\nt = time.perf_counter()\nf = pd.read_excel(sys.argv[1], engine="openpyxl")\nprint(len(f), time.perf_counter() - t)';
const results = {};

try {
  const xlsx = path.join(work, 'table.xlsx');
  if (!values['skip-xlsx']) await writeXlsx(xlsx, Number(values.rows));
  if (!values['skip-xlsx']) {
  const ours = readXlsx(xlsx);
  const [pandasRows, pandasSeconds] = execFileSync('/usr/bin/python3', ['-c', PANDAS, xlsx]).toString().trim().split(' ').map(Number);
  results.xlsx = { rows: ours.rows, bytes: fs.statSync(xlsx).size, tributarySeconds: ours.seconds, pandasRows, pandasSeconds, speedup: pandasSeconds / ours.seconds };
  console.log(`xlsx ${ours.rows} rows × 8: Tributary ${ours.seconds.toFixed(2)} s, pandas read_excel ${pandasSeconds.toFixed(2)} s: ${(pandasSeconds / ours.seconds).toFixed(1)}×`);
  }

  if (!values['skip-big']) {
    const big = path.join(work, 'big.xlsx');
    await writeXlsx(big, Number(values['big-rows']));
    const read = readXlsx(big);
    results.bigXlsx = { rows: read.rows, megabytes: fs.statSync(big).size / 1e6, seconds: read.seconds, peakRssMiB: read.peakRssMiB };
    console.log(`xlsx of ${(fs.statSync(big).size / 1e6).toFixed(0)} MB (${read.rows} rows): ${read.seconds.toFixed(1)} s, peak RSS ${read.peakRssMiB} MiB`);
    fs.rmSync(big);
  }

  results.ndjson = await ndjsonEndToEnd(Number(values['ndjson-rows']));
  console.log(`NDJSON end to end, ${results.ndjson.rows} rows: ${Math.round(results.ndjson.rowsPerSecond)} rows/s after the ${results.ndjson.settleSeconds.toFixed(1)} s settle wait; server ${results.ndjson.cpuSecondsPerMillion.toFixed(1)} CPU s per million rows; load average ${results.ndjson.loadAverage.toFixed(1)}`);
  fs.mkdirSync(path.join(ROOT, 'bench', 'results'), { recursive: true });
  fs.writeFileSync(path.join(ROOT, 'bench', 'results', `documents-${new Date().toISOString().replace(/[:.]/g, '-')}.json`), `${JSON.stringify(results, null, 2)}\n`);
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}

async function ndjsonEndToEnd(rows) {
  const KEY_ID = 'bench@tributary.local';
  const API_KEY = 'bench-api-key';
  const dataDirectory = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-bench-'));
  const drop = path.join(dataDirectory, 'drop');
  fs.mkdirSync(drop);
  const files = 4;
  const perFile = Math.ceil(rows / files);
  for (let f = 0; f < files; f += 1) writeNdjson(path.join(dataDirectory, `m${f}.ndjson.tmp`), perFile, f * perFile);
  const ingest = await startIngestServer({ keys: { [KEY_ID]: API_KEY }, countOnly: true });
  const server = await startBenchServer(dataDirectory, { nodeFlags: values.profile ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(values.profile)}`] : [] });
  try {
    await server.configure({
      data_receiver: [{
        data_receiver_name: 'bench', protocol: 'localfile', poll_interval: 1, connections: [{ root_path: drop }],
        streams: Array.from({ length: files }, (_, f) => ({ asset: `Machine_${f}`, stream_type: 'events', file_filter: [`m${f}.ndjson`] })),
        parsers: [{ parser_name: 'events', parser_type: 'json', options: { lines: true, parse_timestamps: [{ field_name: 'time', format: '%Y-%m-%dT%H:%M:%S' }] } }],
      }],
      data_transmit: [{ transmit_name: 'cloud', transmit_type: 'remotedatapost', base_url: ingest.url, API_key: API_KEY, API_key_ID: KEY_ID, timeout: 60, poll_interval: 1, max_request_records: 3000, max_buffer_mb: 16384 }],
    });
    await server.waitUntilRunning();
    await sleep(2000);
    const cpuBefore = procStats(server.pid).cpuSeconds;
    const delivered = performance.now();
    for (let f = 0; f < files; f += 1) fs.renameSync(path.join(dataDirectory, `m${f}.ndjson.tmp`), path.join(drop, `m${f}.ndjson`));
    const total = perFile * files;
    while (ingest.receivedCount() < total) await sleep(ingest.receivedCount() === 0 ? 20 : 100);
    // Between the moments the ingest server counted the first and the last rows.
    const firstAt = ingest.firstReceivedAt();
    const seconds = (ingest.lastReceivedAt() - firstAt) / 1000;
    // The server's CPU for the rows (steadier than rows/s on a shared machine), and the load meanwhile.
    const cpuSecondsPerMillion = ((procStats(server.pid).cpuSeconds - cpuBefore) / total) * 1e6;
    return { rows: total, seconds, rowsPerSecond: total / seconds, settleSeconds: (firstAt - delivered) / 1000, cpuSecondsPerMillion, loadAverage: os.loadavg()[0] };
  } finally {
    await server.stop?.();
    await ingest.close();
    fs.rmSync(dataDirectory, { recursive: true, force: true });
  }
}
