#!/usr/bin/env node
// Idle benchmark: what the agent costs when there is (almost) nothing to do.
// Usage: npm run build:node && node bench/idle.mjs [--seconds 60 --settle 15 --phases demo,quiet]
//
// Phases, each a fresh headless server (dist/electron/serve.js, started as `npm run serve` does):
//   demo   `serve --demo`: the demo configuration with its simulated line (two CSV rows a second)
//          and its simulated OPC UA plant (8 tags at 1 s) in the same process: the "running demo".
//   quiet  the same data directory started again without --demo: the demo configuration is kept,
//          its files are already read and nothing appends to them, and no OPC UA server answers
//          (the demo receiver waits between connection attempts): the agent with nothing to read.
// For each phase it waits until the console is up, lets start-up settle (--settle seconds), then
// measures the process's CPU (all threads, /proc/<pid>/stat) over --seconds, as % of one core, and
// its RSS (VmRSS at the end, VmHWM over the whole life). CPU time, not wall clock, is what it
// reports: it is little disturbed by other processes on the machine.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({ options: { seconds: { type: 'string', default: '60' }, settle: { type: 'string', default: '15' }, phases: { type: 'string', default: 'demo,quiet' }, out: { type: 'string' } } });
const SECONDS = Number(values.seconds);
const SETTLE = Number(values.settle);
const SERVE_FLAGS = ['--max-semi-space-size=4']; // as `npm run serve` (package.json)
const TOKEN = 'bench-token-0123456789';
const TICKS = 100; // clock ticks per second on Linux (/proc stat units)

function procStats(pid) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { cpuSeconds: (Number(stat[11]) + Number(stat[12])) / TICKS, rssMb: kb('VmRSS') / 1024, peakRssMb: kb('VmHWM') / 1024, threads: kb('Threads') };
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function phase(name, dataDirectory, args) {
  const child = spawn(process.execPath, [...SERVE_FLAGS, path.join(ROOT, 'dist/electron/serve.js'), '--data-dir', dataDirectory, '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, TRIBUTARY_API_TOKEN: TOKEN } });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  const port = await new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => {
      const m = /:(\d+)\/\?token=/.exec(String(d));
      if (m) resolve(Number(m[1]));
    });
    child.on('exit', (code) => reject(new Error(`server exited ${code}`)));
  });
  const api = async (p) => (await fetch(`http://127.0.0.1:${port}${p}`, { headers: { authorization: `Bearer ${TOKEN}` } })).json();
  for (;;) {
    const services = Object.values((await api('/v1/status')).response?.agent?.services ?? {});
    if (services.length > 0) break;
    await sleep(200);
  }
  await sleep(SETTLE * 1000);
  const before = procStats(child.pid);
  await sleep(SECONDS * 1000);
  const after = procStats(child.pid);
  const services = Object.fromEntries(Object.entries((await api('/v1/status')).response?.agent?.services ?? {}).map(([key, s]) => [key, s.status]));
  child.kill('SIGTERM');
  await exited;
  return {
    phase: name,
    seconds: SECONDS,
    cpu_percent_of_one_core: +(((after.cpuSeconds - before.cpuSeconds) / SECONDS) * 100).toFixed(2),
    rss_mb: Math.round(after.rssMb),
    peak_rss_mb: Math.round(after.peakRssMb),
    threads: after.threads,
    services: JSON.stringify(services),
  };
}

const dataDirectory = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-bench-idle-'));
const results = [];
try {
  for (const name of values.phases.split(',')) {
    process.stderr.write(`idle bench: ${name} (${SETTLE} s settling, ${SECONDS} s measured) …\n`);
    results.push(await phase(name, dataDirectory, name === 'demo' ? ['--demo'] : []));
  }
} finally {
  fs.rmSync(dataDirectory, { recursive: true, force: true });
}
const machine = { cpus: os.cpus().length, load_average: os.loadavg().map((l) => +l.toFixed(2)), node: process.version, date: new Date().toISOString() };
if (values.out) fs.writeFileSync(path.resolve(values.out), JSON.stringify({ machine, results }, null, 2));
console.table(results);
console.log(`load average at the end: ${machine.load_average.join(', ')} (on ${machine.cpus} cores)`);
