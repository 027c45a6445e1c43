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
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { procStats, sleep, startBenchServer } from './bench-server.mjs';
import { FORCE_OPTION, requireQuietMachine } from './quiet.mjs';

const { values } = parseArgs({ options: { ...FORCE_OPTION,  seconds: { type: 'string', default: '60' }, settle: { type: 'string', default: '15' }, phases: { type: 'string', default: 'demo,quiet' }, out: { type: 'string' } } });
requireQuietMachine(values.force);
const SECONDS = Number(values.seconds);
const SETTLE = Number(values.settle);
async function phase(name, dataDirectory, args) {
  const server = await startBenchServer(dataDirectory, { args });
  while (Object.keys(await server.services()).length === 0) await sleep(200);
  await sleep(SETTLE * 1000);
  const before = procStats(server.pid);
  await sleep(SECONDS * 1000);
  const after = procStats(server.pid);
  const services = Object.fromEntries(Object.entries(await server.services()).map(([key, s]) => [key, s.status]));
  await server.stop();
  return {
    phase: name,
    seconds: SECONDS,
    cpu_percent_of_one_core: +(((after.cpuSeconds - before.cpuSeconds) / SECONDS) * 100).toFixed(2),
    rss_mb: Math.round(after.rss / 1024 / 1024),
    peak_rss_mb: Math.round(after.peakRss / 1024 / 1024),
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
