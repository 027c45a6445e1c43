#!/usr/bin/env node
// Tributary and its peers on the same single CSV file, in one run (issue 58: the end-to-end ratio on
// one 1M-row file ≥ 8× the pandas-style pipeline and ≥ 12× Node-RED 4). The file (bench/csv-data.mjs)
// is written once; each of the three then gets it dropped, already running and idle, and is timed
// from the drop until the loopback ingest server has every row:
//   tributary  bench/end-to-end.mjs: localfile receiver, convert_timestamps, remotedatapost;
//   pandas     bench/peers/pandas_pipeline.py (/usr/bin/python3);
//   node-red   bench/peers/node-red/flow.json in Node-RED 4 (`npm ci --prefix bench/peers/node-red`).
// All post the same records (BSON, gzip, Fernet, batches of 3000) to the same kind of ingest server.
// Usage: npm run bench:peers [-- --rows 1000000 --peers tributary,pandas,node-red --out <file> --force]
// Prints rows/s, seconds, CPU seconds and peak RSS of each, the 1-minute load average at the start
// of each, and Tributary's rows/s over each peer's; writes them as JSON (bench/results/ or --out).
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startIngestServer } from '../dist/electron/ingest/ingest-server.js';
import { ROOT, linkOrCopy, procStats, sleep } from './bench-server.mjs';
import { API_KEY, BATCH_RECORDS, KEY_ID, endToEnd } from './end-to-end.mjs';
import { FORCE_OPTION, requireQuietMachine } from './quiet.mjs';

const { values } = parseArgs({ options: { ...FORCE_OPTION, rows: { type: 'string', default: '1000000' }, peers: { type: 'string', default: 'tributary,pandas,node-red' }, out: { type: 'string' } } });
const PYTHON = '/usr/bin/python3';
const PEERS = path.join(ROOT, 'bench', 'peers');
const NODE_RED = path.join(PEERS, 'node-red');
/** Issue 58's targets: Tributary's rows/s over the peer's. */
const TARGETS = { pandas: 8, 'node-red': 12 };
/** A run that delivers nothing new for this long has failed. */
const STALL_MS = 120_000;

const rows = Number(values.rows);
const names = values.peers.split(',');
requireQuietMachine(values.force);
checkPrerequisites();

/** Fails before any work when a peer cannot run, with what to install. */
function checkPrerequisites() {
  if (names.includes('pandas')) {
    try {
      execFileSync(PYTHON, ['-c', 'import pandas, cryptography, bson'], { stdio: 'pipe' });
    } catch {
      throw new Error(`${PYTHON} cannot import pandas, cryptography and bson: apt-get install python3-pandas python3-cryptography python3-bson python3-bson-ext`);
    }
  }
  if (names.includes('node-red') && !fs.existsSync(path.join(NODE_RED, 'node_modules', 'node-red', 'red.js'))) {
    throw new Error('Node-RED is not installed for the bench: npm ci --prefix bench/peers/node-red');
  }
}

/**
 * Drops `source` into `folder` (as m0.csv, by a rename) and waits until `ingest` has `rows` rows;
 * fails when nothing new arrives for STALL_MS or `failed()` answers a reason. Answers the seconds
 * from the drop and the rows delivered one second later (more would be duplicates).
 */
async function dropAndWait(source, folder, ingest, failed = () => undefined) {
  const staged = path.join(path.dirname(folder), 'm0.csv.tmp');
  linkOrCopy(source, staged);
  const started = performance.now();
  fs.renameSync(staged, path.join(folder, 'm0.csv'));
  let seen = 0;
  let progressAt = started;
  while (ingest.receivedCount() < rows) {
    await sleep(ingest.receivedCount() === 0 ? 10 : 100);
    const reason = failed();
    if (reason) throw new Error(reason);
    if (ingest.receivedCount() > seen) [seen, progressAt] = [ingest.receivedCount(), performance.now()];
    if (performance.now() - progressAt > STALL_MS) throw new Error(`${seen} of ${rows} rows after ${STALL_MS / 1000} s without progress`);
  }
  // To the moment the ingest server counted the last rows, not to this loop's next look.
  const seconds = (ingest.lastReceivedAt() - started) / 1000;
  await sleep(1000);
  return { seconds, delivered: ingest.receivedCount() };
}

/**
 * A peer in a child process, resolved once its output shows `ready`. `output()` is the last 64 KiB
 * of what it printed (lines with an error are echoed to stderr), `failure()` says why the run has
 * failed (an error logged, any exit, or with `exitZeroIsDone` an exit other than 0), `stop()` ends
 * it if it runs and waits for it.
 */
async function startPeer(command, args, env, ready, { exitZeroIsDone = false } = {}) {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let text = '';
  let errorLine;
  const keep = (chunk) => {
    text = (text + chunk).slice(-65536);
    for (const line of String(chunk).split('\n'))
      if (/\[error\]|Error/.test(line)) {
        process.stderr.write(`${line}\n`);
        errorLine ??= line;
      }
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  let exitCode;
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve((exitCode = code ?? signal))));
  const peer = {
    pid: child.pid,
    output: () => text,
    exited: () => exitCode !== undefined,
    failure: () => {
      if (errorLine) return `${path.basename(args[0])} logged an error: ${errorLine}`;
      return exitCode !== undefined && !(exitZeroIsDone && exitCode === 0) ? `${path.basename(args[0])} exited ${exitCode}:\n${text}` : undefined;
    },
    async stop() {
      if (exitCode === undefined) child.kill('SIGTERM');
      await exited;
    },
  };
  while (!text.includes(ready)) {
    if (exitCode !== undefined) throw new Error(`${path.basename(args[0])} exited ${exitCode} before it was ready:\n${text}`);
    await sleep(20);
  }
  return peer;
}

async function runPandas(source) {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-peer-pandas-'));
  const drop = path.join(work, 'drop');
  fs.mkdirSync(drop);
  const ingest = await startIngestServer({ keys: { [KEY_ID]: API_KEY }, countOnly: true });
  let peer;
  try {
    const args = [path.join(PEERS, 'pandas_pipeline.py'), '--file', path.join(drop, 'm0.csv'), '--url', ingest.url, '--key-id', KEY_ID, '--api-key', API_KEY, '--batch', String(BATCH_RECORDS)];
    // Its imports are done before the drop, as Tributary and Node-RED are running before theirs.
    peer = await startPeer(PYTHON, args, {}, 'ready', { exitZeroIsDone: true });
    await sleep(2000);
    // Its last upload was counted before it was answered: an end with rows missing is final.
    const ended = () => peer.failure() ?? (peer.exited() && ingest.receivedCount() < rows ? `the pandas pipeline ended after ${ingest.receivedCount()} of ${rows} rows:\n${peer.output()}` : undefined);
    const { seconds, delivered } = await dropAndWait(source, drop, ingest, ended);
    await peer.stop(); // it ends after its last upload
    const own = JSON.parse(peer.output().split('\n').find((line) => line.startsWith('{')));
    return { seconds, delivered, cpuSeconds: own.cpu_seconds, peakRssMb: own.peak_rss_mb, details: own };
  } finally {
    await peer?.stop();
    await ingest.close();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** A free TCP port on 127.0.0.1 (for Node-RED's own HTTP server, which the flow does not use). */
async function freePort() {
  const net = await import('node:net');
  const server = net.createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Node-RED 4 from bench/peers/node-red, in a child process with a user directory of its own: the
 * flow, settings (127.0.0.1 only, no editor, function nodes may load modules, none is installed),
 * and the flow's one module outside Node.js (bson) known to it as Node-RED's external modules are.
 */
async function runNodeRed(source) {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-peer-node-red-'));
  const userDir = path.join(work, 'user');
  const drop = path.join(work, 'drop');
  fs.mkdirSync(path.join(userDir, 'node_modules'), { recursive: true });
  fs.mkdirSync(drop);
  const bson = JSON.parse(fs.readFileSync(path.join(NODE_RED, 'package.json'), 'utf8')).dependencies.bson;
  fs.writeFileSync(path.join(userDir, 'package.json'), JSON.stringify({ name: 'node-red-project', private: true, dependencies: { bson } }));
  fs.symlinkSync(path.join(NODE_RED, 'node_modules', 'bson'), path.join(userDir, 'node_modules', 'bson'));
  fs.copyFileSync(path.join(NODE_RED, 'flow.json'), path.join(userDir, 'flows.json'));
  const settings = {
    uiHost: '127.0.0.1',
    uiPort: await freePort(),
    httpAdminRoot: false,
    httpNodeRoot: false,
    flowFile: 'flows.json',
    credentialSecret: false,
    functionExternalModules: true,
    externalModules: { modules: { allowInstall: false } },
    logging: { console: { level: 'info', metrics: false, audit: false } },
  };
  fs.writeFileSync(path.join(userDir, 'settings.js'), `module.exports = ${JSON.stringify(settings, null, 2)};\n`);
  const ingest = await startIngestServer({ keys: { [KEY_ID]: API_KEY }, countOnly: true });
  const red = path.join(NODE_RED, 'node_modules', 'node-red', 'red.js');
  let peer;
  try {
    const env = { PEER_DROP_FOLDER: drop, PEER_INGEST_URL: ingest.url, PEER_API_KEY_ID: KEY_ID, PEER_API_KEY: API_KEY };
    peer = await startPeer(process.execPath, [red, '--settings', path.join(userDir, 'settings.js'), '--userDir', userDir], env, 'Started flows');
    await sleep(2000); // idle, as Tributary before its drop
    const before = procStats(peer.pid);
    const { seconds, delivered } = await dropAndWait(source, drop, ingest, peer.failure);
    const after = procStats(peer.pid);
    const version = JSON.parse(fs.readFileSync(path.join(NODE_RED, 'node_modules', 'node-red', 'package.json'), 'utf8')).version;
    return { seconds, delivered, cpuSeconds: after.cpuSeconds - before.cpuSeconds, peakRssMb: Math.round(after.peakRss / 1e6), details: { node_red: version, node: process.version } };
  } finally {
    await peer?.stop();
    await ingest.close();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

async function runTributary(source) {
  const result = await endToEnd(rows, 1, { source });
  return { seconds: result.seconds, delivered: result.rows_delivered, cpuSeconds: +((result.cpu_seconds_per_million_rows * rows) / 1e6).toFixed(2), peakRssMb: result.peak_rss_mb, details: result };
}

const RUNS = { tributary: runTributary, pandas: runPandas, 'node-red': runNodeRed };
for (const name of names) if (!RUNS[name]) throw new Error(`unknown peer ${name} (tributary, pandas, node-red)`);

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-peers-'));
const source = path.join(work, 'bench.csv');
execFileSync(process.execPath, [path.join(ROOT, 'bench', 'csv-data.mjs'), source, '0', String(rows)]);
const csvMb = +(fs.statSync(source).size / 1e6).toFixed(1);
const results = [];
try {
  for (const name of names) {
    const load = os.loadavg();
    process.stderr.write(`peers: ${name}, ${rows} rows (load average ${load.map((l) => l.toFixed(2)).join(' ')}) …\n`);
    const run = await RUNS[name](source);
    results.push({
      peer: name,
      rows,
      rows_delivered: run.delivered,
      seconds: +run.seconds.toFixed(2),
      rows_per_second: Math.round(rows / run.seconds),
      cpu_seconds: +run.cpuSeconds.toFixed(2),
      peak_rss_mb: run.peakRssMb,
      load_at_start: load.map((l) => +l.toFixed(2)),
      details: run.details,
    });
  }
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}

const tributary = results.find((r) => r.peer === 'tributary');
for (const r of results) if (tributary && r !== tributary) r.tributary_ratio = +(tributary.rows_per_second / r.rows_per_second).toFixed(2);
const machine = { cpus: os.cpus().length, cpu_model: os.cpus()[0]?.model, memory_gb: Math.round(os.totalmem() / 1e9), node: process.version, date: new Date().toISOString(), forced: values.force };
fs.mkdirSync(path.join(ROOT, 'bench', 'results'), { recursive: true });
const out = values.out ? path.resolve(values.out) : path.join(ROOT, 'bench', 'results', `peers-${machine.date.slice(0, 19).replace(/[:T]/g, '-')}.json`);
fs.writeFileSync(out, JSON.stringify({ machine, rows, csv_mb: csvMb, batch_records: BATCH_RECORDS, targets: TARGETS, results }, null, 2));
console.table(
  results.map((r) => ({
    peer: r.peer,
    'rows/s': r.rows_per_second,
    seconds: r.seconds,
    'CPU s': r.cpu_seconds,
    'peak RSS MB': r.peak_rss_mb,
    'load 1m at start': r.load_at_start[0],
    'Tributary ×': r.tributary_ratio ?? '',
    target: TARGETS[r.peer] ? `≥ ${TARGETS[r.peer]}×` : '',
  })),
);
console.log(`results: ${path.relative(ROOT, out)}${values.force ? ' (--force: the machine was not necessarily quiet, not a measurement)' : ''}`);
const wrong = results.filter((r) => r.rows_delivered !== rows);
if (wrong.length > 0) {
  console.error(`Not every run delivered ${rows} rows: ${wrong.map((r) => `${r.peer} ${r.rows_delivered}`).join(', ')}`);
  process.exit(1);
}
