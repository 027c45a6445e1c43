#!/usr/bin/env node
// Records per second into the plant's databases (issue 54 point 5): a CSV file of N rows is read
// by a localfile receiver and written by one transmit — sql into PostgreSQL (layout json, then
// wide) or influxdb into InfluxDB 1.x — until the table (or measurement) holds every row. The
// servers are those of `npm run services`. Reported per target: rows/s from the save of the
// configuration to the last row in the database, and the agent's CPU (% of one core).
// Not part of `npm run bench`: `npm run build:node && node bench/db-transmits.mjs [--rows 1000000]
// [--targets pg-json,pg-wide,influx] [--force] [--profile <dir>]` (a V8 CPU profile of each agent
// thread per target under <dir>/<target>; bench/profile-summary.mjs lists the top frames). Refuses to run when the 1-minute load average is
// above 1.5 (a shared machine gives the other work's numbers), unless --force.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { procStats, sleep, startBenchServer } from './bench-server.mjs';
import { FORCE_OPTION, requireQuietMachine } from './quiet.mjs';

const { values: options } = parseArgs({
  options: { ...FORCE_OPTION,
    rows: { type: 'string', default: '1000000' },
    profile: { type: 'string' },
    targets: { type: 'string', default: 'pg-json,pg-wide,influx' },
  },
});
requireQuietMachine(options.force);
const rows = Number(options.rows);

const PG = { host: '127.0.0.1', port: 55432, user: 'tributary', password: 'tributary-pg-pass', database: 'tributary_test' };
const INFLUX = 'http://127.0.0.1:58086';

function writeCsv(file) {
  const fd = fs.openSync(file, 'w');
  fs.writeSync(fd, 'time,part,force,temperature,state\n');
  const start = Date.UTC(2026, 0, 5);
  for (let block = 0; block < rows; block += 10_000) {
    let text = '';
    for (let i = block; i < Math.min(rows, block + 10_000); i += 1) {
      const t = new Date(start + i * 1000).toISOString().replace('T', ' ').slice(0, 19);
      text += `${t},${i},${(i % 1000) * 1.5},${20 + (i % 70) / 10},${i % 7 === 0 ? 'stopped' : 'running'}\n`;
    }
    fs.writeSync(fd, text);
  }
  fs.closeSync(fd);
}

async function pgCount(table) {
  const client = new pg.Client(PG);
  await client.connect();
  try {
    return Number((await client.query(`SELECT count(*) AS n FROM ${table}`)).rows[0].n);
  } catch {
    return 0;
  } finally {
    await client.end();
  }
}

async function influxCount(database) {
  const reply = await fetch(`${INFLUX}/query?${new URLSearchParams({ db: database, q: 'SELECT count(part) FROM cycle' })}`, { method: 'POST' });
  const json = await reply.json();
  return Number(json.results?.[0]?.series?.[0]?.values?.[0]?.[1] ?? 0);
}

async function run(target) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-bench-db-'));
  const drop = path.join(root, 'drop');
  fs.mkdirSync(drop);
  const id = crypto.randomBytes(3).toString('hex');
  let transmit;
  let count;
  let cleanup = async () => undefined;
  if (target.startsWith('pg')) {
    const layout = target === 'pg-wide' ? 'wide' : 'json';
    const table = `bench_${id}`;
    transmit = { transmit_name: 'db', transmit_type: 'sql', host: PG.host, port: PG.port, username: PG.user, password: PG.password, database_type: 'postgresql', database_name: PG.database, table, layout, batch_records: 20_000 };
    const real = layout === 'wide' ? `${table}_cycle` : table;
    count = () => pgCount(real);
    cleanup = async () => {
      const client = new pg.Client(PG);
      await client.connect();
      await client.query(`DROP TABLE IF EXISTS ${real}`);
      await client.end();
    };
  } else {
    const database = `bench_${id}`;
    await fetch(`${INFLUX}/query?${new URLSearchParams({ q: `CREATE DATABASE ${database}` })}`, { method: 'POST' });
    transmit = { transmit_name: 'db', transmit_type: 'influxdb', url: INFLUX, database, batch_points: 5000 };
    count = () => influxCount(database);
    cleanup = async () => fetch(`${INFLUX}/query?${new URLSearchParams({ q: `DROP DATABASE ${database}` })}`, { method: 'POST' });
  }
  writeCsv(path.join(drop, 'press_1.csv'));
  const agent = await startBenchServer(path.join(root, 'data'), { nodeFlags: options.profile ? ['--cpu-prof', '--cpu-prof-dir', path.resolve(options.profile, target)] : [] });
  const config = {
    data_receiver: [{
      data_receiver_name: 'line', protocol: 'localfile', poll_interval: 1, connections: [{ root_path: drop }],
      streams: [{ asset: 'Press_1', stream_type: 'cycle', file_filter: ['press_*.csv'] }],
      parsers: [{ parser_name: 'csv', parser_type: 'spreadsheet', filter_stream: ['*'], options: { localtz: 'UTC', parse: { separator: ',', header: 0, parse_timestamps: [{ field_name: 'time', format: '%Y-%m-%d %H:%M:%S' }] } } }],
    }],
    data_transmit: [{ filter_stream: ['*'], poll_interval: 1, ...transmit }],
  };
  const cpuBefore = procStats(agent.pid);
  const started = performance.now();
  const saved = await agent.api('POST', '/v1/config', config);
  if (!saved.success) throw new Error(JSON.stringify(saved));
  let n = 0;
  const deadline = Date.now() + 30 * 60_000;
  while ((n = await count()) < rows && Date.now() < deadline) await sleep(250);
  const seconds = (performance.now() - started) / 1000;
  const cpuAfter = procStats(agent.pid);
  const cpu = ((cpuAfter.cpuSeconds - cpuBefore.cpuSeconds) / seconds) * 100;
  console.log(`${target}: ${n.toLocaleString('en')} rows in ${seconds.toFixed(1)} s = ${Math.round(n / seconds).toLocaleString('en')} rows/s; agent CPU ${cpu.toFixed(0)} % of a core, peak RSS ${Math.round(cpuAfter.peakRss / 2 ** 20)} MiB`);
  await agent.stop();
  await cleanup();
  fs.rmSync(root, { recursive: true, force: true });
}

for (const target of options.targets.split(',')) await run(target);
