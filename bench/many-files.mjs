#!/usr/bin/env node
// Many small files in one folder (issue 39): 50,000 one-row CSV files appear at once (a folder renamed
// into the receiver's root_path) and are read by the real headless server (dist/electron/serve.js).
// Reports the time per file of each 10,000 read (a flat cost: no look at every file read so far), the
// latency of GET /v1/status meanwhile (from a thread of its own), and how long POST /v1/agent/stop
// takes while a second drop is being read.
// Usage: npm run build:node && node bench/many-files.mjs [--files 50000 --step 10000 --out <file>]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startIngestServer } from '../dist/electron/ingest/ingest-server.js';
import { procStats, sleep, startBenchServer } from './bench-server.mjs';
import { FORCE_OPTION, requireQuietMachine } from './quiet.mjs';

const { values } = parseArgs({ options: { ...FORCE_OPTION,  files: { type: 'string', default: '50000' }, step: { type: 'string', default: '10000' }, out: { type: 'string' }, keep: { type: 'boolean', default: false } } });
requireQuietMachine(values.force);
const FILES = Number(values.files);
const STEP = Number(values.step);
const KEY_ID = 'bench@tributary.local';
const API_KEY = 'bench-api-key';

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/** `count` one-row files in a new folder beside the receiver's (renamed into it by the caller). */
function stage(root, name, count, first) {
  const folder = path.join(root, name);
  fs.mkdirSync(folder);
  for (let i = first; i < first + count; i += 1) {
    const second = String(i % 60).padStart(2, '0');
    fs.writeFileSync(path.join(folder, `f${String(i).padStart(6, '0')}.csv`), `time,part,force\n2026-01-05 06:00:${second},${i},1.5\n`);
  }
  return folder;
}

const dataDirectory = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-bench-many-'));
// The source folder lies outside the data directory (the data directory is off limits to receivers).
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-bench-many-src-'));
const drop = path.join(root, 'in');
fs.mkdirSync(drop);
process.stderr.write(`many files: writing ${FILES} files …\n`);
const first = stage(root, 'stage1', FILES, 0);
const ingest = await startIngestServer({ keys: { [KEY_ID]: API_KEY }, countOnly: true });
const server = await startBenchServer(dataDirectory);
/** The API once more when a kept-alive connection was closed by the server as the request left. */
const api = async (method, route) => {
  try {
    return await server.api(method, route);
  } catch (error) {
    if (error?.cause?.code !== 'UND_ERR_SOCKET') throw error;
    return server.api(method, route);
  }
};
const readSoFar = async () => (await api('GET', '/v1/streams')).response?.[0]?.stats?.records_read ?? 0;
try {
  await server.configure({
    data_receiver: [
      {
        data_receiver_name: 'many',
        protocol: 'localfile',
        poll_interval: 1,
        connections: [{ root_path: drop }],
        streams: [{ asset: 'Line_1', stream_type: 'process', file_filter: ['*.csv'] }],
        parsers: [{ parser_name: 'csv', parser_type: 'spreadsheet', options: { parse: { parse_timestamps: [{ field_name: 'time', format: '%Y-%m-%d %H:%M:%S' }] } } }],
      },
    ],
    transforms: [],
    data_transmit: [{ transmit_name: 'cloud', transmit_type: 'remotedatapost', base_url: ingest.url, API_key: API_KEY, API_key_ID: KEY_ID, timeout: 60, poll_interval: 1, max_request_records: 3000 }],
  });
  await server.waitUntilRunning();
  await sleep(2000);
  const poller = await server.pollStatus(50);
  const before = procStats(server.pid);
  const started = performance.now();
  fs.renameSync(first, path.join(drop, 'batch1'));
  // When each STEP of files had been read.
  const marks = [];
  let firstReadAt;
  for (let next = STEP; next <= FILES; ) {
    const read = await readSoFar();
    if (firstReadAt === undefined && read > 0) firstReadAt = performance.now();
    while (read >= next && next <= FILES) {
      marks.push({ files: next, at: performance.now() });
      next += STEP;
    }
    await sleep(100);
  }
  const seconds = (performance.now() - started) / 1000;
  const latencies = (await poller.stop()).sort((a, b) => a - b);
  const after = procStats(server.pid);
  const steps = marks.map((mark, k) => {
    const from = k === 0 ? firstReadAt : marks[k - 1].at;
    return { files: `${mark.files - STEP + 1}–${mark.files}`, seconds: +((mark.at - from) / 1000).toFixed(1), ms_per_file: +((mark.at - from) / STEP).toFixed(2) };
  });

  console.table(steps);
  const reading = { files: FILES, seconds: +seconds.toFixed(1), status_p99_ms: +percentile(latencies, 99).toFixed(1), status_max_ms: +latencies.at(-1).toFixed(1) };
  console.log(JSON.stringify(reading));

  // A second drop; stop while it is read.
  const second = stage(root, 'stage2', STEP, FILES);
  const readBefore = await readSoFar();
  fs.renameSync(second, path.join(drop, 'batch2'));
  while ((await readSoFar()) < readBefore + STEP / 10) await sleep(50);
  const stopStarted = performance.now();
  const stopped = await api('POST', '/v1/agent/stop');
  const stopMs = performance.now() - stopStarted;

  const result = {
    files: FILES,
    first_read_seconds: +((firstReadAt - started) / 1000).toFixed(1),
    seconds: +seconds.toFixed(1),
    files_per_second: Math.round(FILES / seconds),
    last_to_first_step: +(steps.at(-1).ms_per_file / steps[0].ms_per_file).toFixed(2),
    status_p50_ms: +percentile(latencies, 50).toFixed(1),
    status_p99_ms: +percentile(latencies, 99).toFixed(1),
    status_max_ms: +latencies.at(-1).toFixed(1),
    status_samples: latencies.length,
    stop_ms: Math.round(stopMs),
    stop_answer: stopped.response,
    cpu_seconds: after && before ? +(after.cpuSeconds - before.cpuSeconds).toFixed(1) : null,
    peak_rss_mb: after ? Math.round(after.peakRss / 1e6) : null,
  };
  const machine = { cpus: os.cpus().length, load_average: os.loadavg().map((l) => +l.toFixed(2)), node: process.version, date: new Date().toISOString() };
  console.table([result]);
  console.log(`load average at the end: ${machine.load_average.join(', ')} (on ${machine.cpus} cores)`);
  if (values.out) fs.writeFileSync(path.resolve(values.out), JSON.stringify({ machine, steps, result }, null, 2));
} finally {
  await server.stop();
  await ingest.close();
  // --keep: the data directory stays for a look at its logs (the source folder always goes).
  if (values.keep) process.stderr.write(`data directory kept: ${dataDirectory}\n`);
  else fs.rmSync(dataDirectory, { recursive: true, force: true });
  fs.rmSync(root, { recursive: true, force: true });
}
