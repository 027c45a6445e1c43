// What the benchmarks share: the real headless server (dist/electron/serve.js) in a child process,
// started as `npm run serve` starts it, its API, /proc counters, and the CSV drop of a localfile
// receiver (bench/run.mjs, bench/mqtt.mjs, bench/idle.mjs, bench/hostile-bodies.mjs).
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// With the node flags of `npm run serve` (package.json's serve script: a small young generation, a
// gentle heap growth; docs/performance.md), read from there so that benches measure what runs.
// BENCH_NODE_FLAGS (space-separated) adds flags to every benchmark's server, for A/B runs of V8
// settings without editing the benches.
const serveScript = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts.serve;
const serveFlags = /node ((?:--\S+ )*)dist\/electron\/serve\.js/.exec(serveScript);
if (!serveFlags) throw new Error(`bench-server.mjs cannot find the node flags of the serve script: ${serveScript}`);
const SERVE_FLAGS = [...serveFlags[1].split(' '), ...(process.env.BENCH_NODE_FLAGS ?? '').split(' ')].filter(Boolean);
// At least MIN_TOKEN_LENGTH (16) characters: shorter tokens are refused.
const BENCH_TOKEN = 'bench-token-0123456789';
const TICKS = 100; // clock ticks per second on Linux (/proc stat units)

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Starts the server on a free port over `dataDirectory` and resolves once it listens.
 * `nodeFlags` go to node before the script (e.g. --cpu-prof), `args` after it (e.g. --demo); `ipc`
 * opens an IPC channel to it (`child.send`). `api(method, path, body)` answers the parsed envelope;
 * `url` and `headers` are for requests made by hand; `stop()` ends the server and waits for it.
 */
export async function startBenchServer(dataDirectory, { nodeFlags = [], args = [], ipc = false } = {}) {
  const child = spawn(process.execPath, [...SERVE_FLAGS, ...nodeFlags, path.join(ROOT, 'dist/electron/serve.js'), '--data-dir', dataDirectory, '--port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'inherit', ...(ipc ? ['ipc'] : [])],
    env: { ...process.env, TRIBUTARY_API_TOKEN: BENCH_TOKEN },
  });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  const port = await new Promise((resolve, reject) => {
    let out = '';
    // BENCH_AGENT_STDOUT=<file> keeps what the server prints (e.g. BENCH_NODE_FLAGS=--trace-gc).
    const keep = process.env.BENCH_AGENT_STDOUT ? fs.createWriteStream(process.env.BENCH_AGENT_STDOUT) : undefined;
    child.stdout.on('data', (d) => {
      keep?.write(d);
      if (out.length > 65536) return;
      out += d;
      const m = /:(\d+)\/\?token=/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    child.on('exit', (code) => reject(new Error(`server exited ${code}`)));
  });
  const url = `http://127.0.0.1:${port}`;
  const headers = { authorization: `Bearer ${BENCH_TOKEN}`, 'content-type': 'application/json' };
  const api = async (method, p, body) => (await fetch(`${url}${p}`, { method, headers, body: body && JSON.stringify(body) })).json();
  return {
    child,
    pid: child.pid,
    url,
    headers,
    api,
    /**
     * Times GET /v1/status every `intervalMs` from a thread of its own (status-poller.mjs) until
     * `stop()`, which answers the latencies in ms; resolves once the thread's first request is done.
     */
    async pollStatus(intervalMs) {
      const worker = new Worker(new URL('./status-poller.mjs', import.meta.url), { workerData: { url, headers, intervalMs } });
      const message = () =>
        new Promise((resolve, reject) => {
          worker.once('message', resolve);
          worker.once('error', reject);
        });
      await message(); // 'ready': its first request is done
      const done = message();
      return {
        async stop() {
          worker.postMessage('stop');
          const latencies = await done;
          await worker.terminate();
          return latencies;
        },
      };
    },
    /** The services of GET /v1/status by id. */
    services: async () => (await api('GET', '/v1/status')).response?.agent?.services ?? {},
    /** Saves `config`; throws with the answer when it is refused. */
    async configure(config) {
      const saved = await api('POST', '/v1/config', config);
      if (!saved.success) throw new Error(JSON.stringify(saved));
    },
    /** Until every configured service runs (start-up of threads and folder watchers is over). */
    async waitUntilRunning() {
      for (;;) {
        const services = Object.values(await this.services());
        if (services.length > 0 && services.every((s) => s.status === 'running')) return;
        await sleep(100);
      }
    },
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * CPU seconds (all threads), RSS and peak RSS (bytes) and threads of a process, from /proc;
 * undefined once it is gone.
 */
export function procStats(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const field = (name) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
    return { cpuSeconds: (Number(stat[11]) + Number(stat[12])) / TICKS, rss: field('VmRSS') * 1024, peakRss: field('VmHWM') * 1024, threads: field('Threads') };
  } catch {
    return undefined;
  }
}

/**
 * CPU seconds of each thread of a process (by thread id, with its name from /proc: V8's helpers
 * and libuv's pool show as such; Node names a worker thread after the process): what procStats
 * adds up, per thread. Empty once the process is gone.
 */
export function threadStats(pid) {
  const threads = new Map();
  let tids = [];
  try {
    tids = fs.readdirSync(`/proc/${pid}/task`);
  } catch {
    return threads;
  }
  for (const tid of tids) {
    try {
      const raw = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const name = raw.slice(raw.indexOf('(') + 1, raw.lastIndexOf(')'));
      const stat = raw.slice(raw.lastIndexOf(') ') + 2).split(' ');
      threads.set(tid, { name, cpuSeconds: (Number(stat[11]) + Number(stat[12])) / TICKS });
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return threads;
}

/**
 * CPU seconds per million rows of each thread that used any between two threadStats, busiest
 * first, as "name#tid": where a run's CPU went, without a profiler's own cost.
 */
export function threadCpuPerMillion(before, after, rows) {
  const used = [];
  for (const [tid, { name, cpuSeconds }] of after) {
    const spent = cpuSeconds - (before.get(tid)?.cpuSeconds ?? 0);
    if (spent > 0) used.push({ thread: `${name}#${tid}`, cpu_seconds_per_million_rows: +((spent / rows) * 1e6).toFixed(2) });
  }
  return used.sort((a, b) => b.cpu_seconds_per_million_rows - a.cpu_seconds_per_million_rows);
}

/**
 * `rows` rows of bench/csv-data.mjs in `files` files m<f>.csv, written beside the folder `drop`
 * (<dataDirectory>/drop) as .tmp files, so that `deliver()` can drop them all at once by renaming.
 * The files are written in child processes: the garbage of building them stays out of this one.
 * `source`: a CSV already written (one file, bench/peers.mjs) is linked (or copied) instead.
 */
export function prepareDrop(dataDirectory, rows, files, { source } = {}) {
  const drop = path.join(dataDirectory, 'drop');
  fs.mkdirSync(drop);
  const perFile = Math.ceil(rows / files);
  const staged = (f) => path.join(dataDirectory, `m${f}.csv.tmp`);
  let bytes = 0;
  for (let f = 0; f < files; f += 1) {
    if (source) linkOrCopy(source, staged(f));
    else execFileSync(process.execPath, [path.join(ROOT, 'bench', 'csv-data.mjs'), staged(f), String(f * perFile), String(Math.min(perFile, rows - f * perFile))]);
    bytes += fs.statSync(staged(f)).size;
  }
  return {
    drop,
    bytes,
    /** The localfile receiver of the bench: stream Machine_<f>:process reads m<f>.csv. */
    receiver: {
      data_receiver_name: 'bench',
      protocol: 'localfile',
      poll_interval: 1,
      connections: [{ root_path: drop }],
      streams: Array.from({ length: files }, (_, f) => ({ asset: `Machine_${f}`, stream_type: 'process', file_filter: [`m${f}.csv`] })),
      parsers: [{ parser_name: 'csv', parser_type: 'spreadsheet', options: { parse: { parse_timestamps: [{ field_name: 'time', format: '%Y-%m-%d %H:%M:%S' }] } } }],
    },
    deliver() {
      for (let f = 0; f < files; f += 1) fs.renameSync(staged(f), path.join(drop, `m${f}.csv`));
    },
  };
}

/** A hard link of `from` at `to` (the same bytes, no copy), or a copy across file systems. */
export function linkOrCopy(from, to) {
  try {
    fs.linkSync(from, to);
  } catch {
    fs.copyFileSync(from, to);
  }
}
