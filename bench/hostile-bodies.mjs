// Cheap heavy bodies (issue: a 5 MB body of empty transmits blocked the event loop for 72 s and took
// 4 GB; 300 KB gave a 15 MB violation list; a restream of 200,000 unknown streams blocked 15 s).
// Sends each to the real server (a child process) and reports the answer, its time, the longest
// the server's event loop was blocked meanwhile (monitorEventLoopDelay, bench/loop-monitor.mjs),
// the CPU time the server used (all its threads) and the memory it took. Needs a quiet machine:
// on a busy one the blocks include time the OS gave the CPU to other processes.
// Usage: npm run build:node && node bench/hostile-bodies.mjs [--out file.json]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT, startBenchServer } from './bench-server.mjs';
import { FORCE_OPTION, requireQuietMachine } from './quiet.mjs';

const { values } = parseArgs({ options: { ...FORCE_OPTION,  out: { type: 'string' } } });
requireQuietMachine(values.force);
const dataDirectory = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-bench-hostile-'));
// The real server as `npm run serve` starts it, with the loop monitor preloaded (IPC channel).
const server = await startBenchServer(dataDirectory, { nodeFlags: ['--import', path.join(ROOT, 'bench', 'loop-monitor.mjs')], ipc: true });
const ask = (message) =>
  new Promise((resolve) => {
    server.child.once('message', resolve);
    server.child.send(message);
  });

const receivers = (n, make) => Array.from({ length: n }, (_, i) => make(i));
const bodies = [
  ['5 MB: 1.7 million empty transmits', 'POST', '/v1/config', `{"data_transmit":[${'{},'.repeat(1_699_999)}{}]}`],
  ['300 KB: 2,000 receivers of unknown fields', 'POST', '/v1/config', JSON.stringify({ data_receiver: receivers(2000, (i) => Object.fromEntries(receivers(12, (k) => [`unknown_field_${k}`, i]))), data_transmit: [] })],
  ['restream of 200,000 unknown streams', 'POST', '/v1/restream', JSON.stringify({ plant: receivers(200_000, (i) => ({ asset: `A${i}`, stream_type: 'x' })) })],
  ['restream of 20,000 unknown streams', 'POST', '/v1/restream', JSON.stringify({ plant: receivers(20_000, (i) => ({ asset: `A${i}`, stream_type: 'x' })) })],
  ['10,000 levels of nesting', 'POST', '/v1/config', `${'['.repeat(10_000)}${']'.repeat(10_000)}`],
  ['validate 5,000 valid receivers', 'POST', '/v1/config/validate', JSON.stringify({ data_receiver: receivers(5000, (i) => ({ data_receiver_name: `r${i}`, protocol: 'localfile', connections: [{ root_path: `/data/m${i}` }], streams: [{ asset: `M${i}`, stream_type: 'cycle', file_filter: ['*.csv'] }], parsers: [{ parser_name: 'csv', parser_type: 'spreadsheet', options: { localtz: 'Europe/Berlin' } }] })), transforms: [], data_transmit: [] })],
  // Decision 0053: configuration bodies may hold 600,000 values; the largest of them, all empty objects.
  ['600,000 values: empty transmits (config limit)', 'POST', '/v1/config/validate', `{"data_transmit":[${'{},'.repeat(599_997)}{}]}`],
  ['validate a 50,000-tag OPC UA line (~160,000 values)', 'POST', '/v1/config/validate', JSON.stringify(opcuaLine(50_000, 100))],
];

/** One opcua receiver of `tags` tags on `machines` streams, as bench/opcua.mjs configures it. */
function opcuaLine(tags, machines) {
  const perMachine = Math.ceil(tags / machines);
  const streams = receivers(machines, (m) => ({ asset: `Machine_${m}`, stream_type: 'process', opcua_tags: receivers(perMachine, (t) => ({ name: `ns=2;s=M${m}_T${t}`, exportname: `M${m}_T${t}` })) }));
  const receiver = { data_receiver_name: 'line', protocol: 'opcua', read_mode: 'subscription', sampling_interval_ms: 5000, connections: [{ host: '127.0.0.1', port: 4840, timeout: 10 }], streams };
  return { data_receiver: [receiver], transforms: [], data_transmit: [] };
}

const results = [];
for (const [name, method, route, body] of bodies) {
  const bytes = Buffer.from(body);
  const { rssMb: rssBefore } = await ask('read');
  await ask('reset');
  const started = performance.now();
  const response = await fetch(`${server.url}${route}`, { method, headers: server.headers, body: bytes });
  const answer = await response.text();
  const ms = performance.now() - started;
  const { maxMs, cpuMs, rssMb } = await ask('read');
  results.push({
    body: name,
    body_kb: Math.round(bytes.length / 1024),
    status: response.status,
    answer_kb: Math.round((Buffer.byteLength(answer) / 1024) * 10) / 10,
    ms: Math.round(ms),
    max_event_loop_block_ms: Math.round(maxMs),
    server_cpu_ms: Math.round(cpuMs),
    rss_growth_mb: Math.max(0, Math.round(rssMb - rssBefore)),
  });
}
await server.stop();
fs.rmSync(dataDirectory, { recursive: true, force: true });

const columns = ['body', 'body_kb', 'status', 'answer_kb', 'ms', 'max_event_loop_block_ms', 'server_cpu_ms', 'rss_growth_mb'];
const width = (c) => Math.max(c.length, ...results.map((r) => String(r[c]).length));
const line = (cells) => cells.map((cell, i) => String(cell).padEnd(width(columns[i]))).join(' │ ');
process.stdout.write(`${line(columns)}\n${columns.map((c) => '─'.repeat(width(c))).join('─┼─')}\n${results.map((r) => line(columns.map((c) => r[c]))).join('\n')}\n`);
if (values.out) fs.writeFileSync(values.out, JSON.stringify({ machine: { cpus: os.availableParallelism(), node: process.version, date: new Date().toISOString() }, results }, null, 2));
