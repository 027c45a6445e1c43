#!/usr/bin/env node
// Fleet benchmark: what managing N agents costs the desk's agent (issue 34: 30 agents < 5 % of a
// core, its own GET /v1/status p99 < 50 ms, a dead agent unreachable within 15 s).
// Usage: npm run build:node && node bench/fleet.mjs [--agents 30 --seconds 60 --settle 10 --out file]
//
// The desk's agent is the real headless server (dist/electron/serve.js) in a child process. The N
// agents it manages are simulated by this process: N HTTPS servers (one self-signed certificate,
// each pinned on first use), each answering GET /v1/fleet with its own summary as an agent does, and
// counting the polls. Phases: `alone` (no agents: the desk's own cost), then `fleet` (N agents added
// and reachable). Each phase measures the desk's CPU (all threads, /proc) over --seconds and times
// GET /v1/status every 100 ms from a thread of its own. Last, one agent's server closes and the time
// until GET /v1/fleet shows it unreachable is measured.
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT, procStats, sleep, startBenchServer } from './bench-server.mjs';
import { FORCE_OPTION, requireQuietMachine } from './quiet.mjs';

const { values } = parseArgs({
  options: { ...FORCE_OPTION,  agents: { type: 'string', default: '30' }, seconds: { type: 'string', default: '60' }, settle: { type: 'string', default: '10' }, out: { type: 'string' } },
});
requireQuietMachine(values.force);
const AGENTS = Number(values.agents);
const SECONDS = Number(values.seconds);
const SETTLE = Number(values.settle);
const SIM_TOKEN = 'simulated-agent-token-0123456789';

const { loadTlsMaterial } = await import(path.join(ROOT, 'dist/electron/host/tls/tls-certificate.js'));
const dataDirectory = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-bench-fleet-'));
const tls = await loadTlsMaterial({ dataDirectory: fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-bench-fleet-tls-')), host: '127.0.0.1' });

/** One simulated agent: its summary as GET /v1/fleet answers it, and how often it was polled. */
function simulatedAgent(index) {
  const polls = [];
  const server = https.createServer({ cert: tls.cert, key: tls.key, keepAliveTimeout: 30_000 }, (request, response) => {
    if (request.headers.authorization !== `Bearer ${SIM_TOKEN}`) {
      response.writeHead(401, { 'content-type': 'application/json' });
      return response.end(JSON.stringify({ success: false, response: {}, error: { code: 401, text: 'token' } }));
    }
    polls.push(Date.now());
    const self = {
      name: `sim-${index}`, url: 'https://sim', reachable: true, state: 'running', health: 'ok', last_seen: new Date().toISOString(), version: '0.1.0', revision: 7,
      streams: { total: 12, flowing: 11, stale: 1 }, backlog_records: index * 10, error: null, self: true, fingerprint: null, presented_fingerprint: null,
    };
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ success: true, response: { agents: [self] } }));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, polls, url: `https://127.0.0.1:${server.address().port}` })));
}

function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? +sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))].toFixed(2) : null;
}

async function measure(desk, name, agents) {
  await sleep(SETTLE * 1000);
  const poller = await desk.pollStatus(100);
  const before = procStats(desk.pid);
  const pollsBefore = agents.reduce((n, a) => n + a.polls.length, 0);
  await sleep(SECONDS * 1000);
  const after = procStats(desk.pid);
  const latencies = await poller.stop();
  const polls = agents.reduce((n, a) => n + a.polls.length, 0) - pollsBefore;
  // The shortest time between two polls of one agent (issue: at most every 5 s).
  const gaps = agents.flatMap((a) => a.polls.slice(1).map((t, i) => t - a.polls[i]));
  return {
    phase: name,
    agents: agents.length,
    seconds: SECONDS,
    cpu_percent_of_one_core: +(((after.cpuSeconds - before.cpuSeconds) / SECONDS) * 100).toFixed(2),
    status_p50_ms: percentile(latencies, 50),
    status_p99_ms: percentile(latencies, 99),
    status_requests: latencies.length,
    polls_per_second: +(polls / SECONDS).toFixed(2),
    min_poll_gap_ms: gaps.length ? Math.min(...gaps) : null,
    rss_mb: Math.round(after.rss / 1024 / 1024),
  };
}

const desk = await startBenchServer(dataDirectory);
const agents = [];
const results = [];
try {
  process.stderr.write(`fleet bench: the desk alone (${SETTLE} s settling, ${SECONDS} s measured) …\n`);
  results.push(await measure(desk, 'alone', []));
  for (let i = 0; i < AGENTS; i++) agents.push(await simulatedAgent(i));
  for (const [i, agent] of agents.entries()) {
    const added = await desk.api('POST', '/v1/fleet/agents', { name: `sim-${i}`, url: agent.url, token: SIM_TOKEN });
    if (!added.success) throw new Error(`adding sim-${i}: ${JSON.stringify(added)}`);
  }
  process.stderr.write(`fleet bench: ${AGENTS} agents (${SETTLE} s settling, ${SECONDS} s measured) …\n`);
  results.push(await measure(desk, 'fleet', agents));
  const fleet = (await desk.api('GET', '/v1/fleet')).response.agents;
  const reachable = fleet.filter((a) => !a.self && a.reachable).length;
  // A dead agent: its server closes with its connections; how long until the list says so.
  const dead = agents[0];
  const died = Date.now();
  dead.server.close();
  dead.server.closeAllConnections();
  let unreachableAfterMs = null;
  while (Date.now() - died < 30_000) {
    const row = (await desk.api('GET', '/v1/fleet')).response.agents.find((a) => a.name === 'sim-0');
    if (!row.reachable) {
      unreachableAfterMs = Date.now() - died;
      break;
    }
    await sleep(100);
  }
  const machine = { cpus: os.cpus().length, load_average: os.loadavg().map((l) => +l.toFixed(2)), node: process.version, date: new Date().toISOString() };
  const report = { machine, results, reachable_agents: reachable, dead_agent_unreachable_after_ms: unreachableAfterMs };
  if (values.out) fs.writeFileSync(path.resolve(values.out), JSON.stringify(report, null, 2));
  console.table(results);
  console.log(`reachable agents: ${reachable} of ${AGENTS}; a dead agent shown unreachable after ${unreachableAfterMs} ms`);
  console.log(`load average at the end: ${machine.load_average.join(', ')} (on ${machine.cpus} cores)`);
} finally {
  await desk.stop();
  for (const agent of agents) {
    agent.server.close();
    agent.server.closeAllConnections();
  }
  fs.rmSync(dataDirectory, { recursive: true, force: true });
}
