#!/usr/bin/env node
// Siemens S7 polling cost (issue 53 point 5): N PLCs × T tags read every second.
// Each PLC is a small S7comm server in this process (COTP connect, setup communication granting
// --pdu bytes, read var jobs answered with bytes that count up), the agent runs as `serve` in a
// process of its own with one s7 receiver per PLC (one stream of T tags: REALs in DB1, INTs in DB2,
// bits of M) and a csv transmit. Reported: the agent's CPU (% of one core) and RSS over the measured
// window, the jobs answered per second, and the load average at the start (the machine's other
// work shows there).
// Not part of `npm run bench`: `npm run build:node && node bench/s7.mjs [--plcs 50] [--tags 200]
// [--pdu 240] [--seconds 60] [--force]`. Refuses to run when the 1-minute load average is above 1.5
// (a shared machine gives numbers of the other work), unless --force.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { procStats, sleep, startBenchServer } from './bench-server.mjs';

const { values: options } = parseArgs({
  options: {
    plcs: { type: 'string', default: '50' },
    tags: { type: 'string', default: '200' },
    pdu: { type: 'string', default: '240' },
    seconds: { type: 'string', default: '60' },
    warmup: { type: 'string', default: '5' },
    force: { type: 'boolean', default: false },
  },
});
const plcs = Number(options.plcs);
const tags = Number(options.tags);
const pdu = Number(options.pdu);
const seconds = Number(options.seconds);
const load = os.loadavg();
console.log(`load average at start: ${load.map((l) => l.toFixed(2)).join(' ')} (${os.cpus().length} cores)`);
if (load[0] > 1.5 && !options.force) {
  console.error('The 1-minute load average is above 1.5: the numbers would be the other work\'s. Run on a quiet machine, or pass --force.');
  process.exit(2);
}
if (!(tags >= 1 && tags <= 2000)) throw new Error('--tags: 1..2000');
if (!(pdu >= 240 && pdu <= 960)) throw new Error('--pdu: 240..960');

const tpkt = (payload) => Buffer.concat([Buffer.from([0x03, 0x00, (payload.length + 4) >> 8, (payload.length + 4) & 0xff]), payload]);
const CONNECT_CONFIRM = tpkt(Buffer.from([0x11, 0xd0, 0x00, 0x01, 0x00, 0x01, 0x00, 0xc0, 0x01, 0x0a, 0xc1, 0x02, 0x01, 0x00, 0xc2, 0x02, 0x01, 0x01]));

function setupAnswer(request) {
  const s7 = Buffer.from([0x32, 0x03, 0x00, 0x00, request[11], request[12], 0x00, 0x08, 0x00, 0x00, 0x00, 0x00, 0xf0, 0x00, 0x00, 0x01, 0x00, 0x01, pdu >> 8, pdu & 0xff]);
  return tpkt(Buffer.concat([Buffer.from([0x02, 0xf0, 0x80]), s7]));
}

function readAnswer(request, tick) {
  const count = request[18];
  const parts = [];
  for (let i = 0; i < count; i += 1) {
    const length = request.readUInt16BE(19 + 12 * i + 4);
    const item = Buffer.alloc(4 + length + (i < count - 1 ? length % 2 : 0));
    item[0] = 0xff;
    item[1] = 0x04;
    item.writeUInt16BE(length * 8, 2);
    for (let b = 0; b < length; b += 1) item[4 + b] = (tick + b) & 0xff;
    parts.push(item);
  }
  const body = Buffer.concat(parts);
  const header = Buffer.from([0x32, 0x03, 0x00, 0x00, request[11], request[12], 0x00, 0x02, body.length >> 8, body.length & 0xff, 0x00, 0x00, 0x04, count]);
  return tpkt(Buffer.concat([Buffer.from([0x02, 0xf0, 0x80]), header, body]));
}

/** A PLC answering COTP connect, setup communication and read var jobs. */
function startPlc() {
  let tick = 0;
  let answered = 0;
  const server = net.createServer((socket) => {
    socket.setNoDelay(true);
    socket.on('error', () => undefined);
    let pending = Buffer.alloc(0);
    socket.on('data', (chunk) => {
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
      while (pending.length >= 4 && pending.length >= pending.readUInt16BE(2)) {
        const frame = pending.subarray(0, pending.readUInt16BE(2));
        pending = pending.subarray(frame.length);
        if (frame[5] === 0xe0) socket.write(CONNECT_CONFIRM);
        else if (frame[17] === 0xf0) socket.write(setupAnswer(frame));
        else {
          tick += 1;
          socket.write(readAnswer(frame, tick));
          answered += 1;
        }
      }
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ port: server.address().port, server, answered: () => answered })));
}

/** Half the tags REALs of DB1, a quarter INTs of DB2, the rest bits of M. */
function tagList() {
  return Array.from({ length: tags }, (_, t) => {
    if (t < tags / 2) return { exportname: `t${t}`, address: `DB1,REAL${4 * t}` };
    if (t < (3 * tags) / 4) return { exportname: `t${t}`, address: `DB2,INT${2 * t}` };
    return { exportname: `t${t}`, address: `M${t >> 3}.${t & 7}` };
  });
}

const fleet = await Promise.all(Array.from({ length: plcs }, startPlc));
const dataDirectory = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-bench-s7-'));
const outbox = path.join(dataDirectory, 'csv');
const server = await startBenchServer(dataDirectory);
try {
  await server.configure({
    data_receiver: fleet.map((plc, p) => ({
      data_receiver_name: `oven_${p}`,
      protocol: 's7',
      poll_interval: 1,
      connections: [{ host: '127.0.0.1', port: plc.port, rack: 0, slot: 1, timeout: 3 }],
      streams: [{ asset: `Oven_${p}`, stream_type: 'tags', s7_tags: tagList() }],
    })),
    transforms: [],
    data_transmit: [{ transmit_name: 'archive', transmit_type: 'csv', filter_stream: ['*'], directory: outbox, poll_interval: 1 }],
  });
  await server.waitUntilRunning();
  await sleep(Number(options.warmup) * 1000);
  const answered = () => fleet.reduce((sum, d) => sum + d.answered(), 0);
  const before = { cpu: procStats(server.pid).cpuSeconds, answered: answered(), at: performance.now() };
  let peakRss = 0;
  const end = performance.now() + seconds * 1000;
  while (performance.now() < end) {
    await sleep(1000);
    peakRss = Math.max(peakRss, procStats(server.pid)?.rss ?? 0);
  }
  const after = { cpu: procStats(server.pid).cpuSeconds, answered: answered(), at: performance.now(), rss: procStats(server.pid).rss };
  const elapsed = (after.at - before.at) / 1000;
  const result = {
    plcs,
    tags_per_plc: tags,
    pdu_bytes: pdu,
    poll_interval_s: 1,
    seconds: +elapsed.toFixed(1),
    jobs_per_second: +((after.answered - before.answered) / elapsed).toFixed(1),
    jobs_per_plc_and_poll: +((after.answered - before.answered) / elapsed / plcs).toFixed(2),
    agent_cpu_percent_of_one_core: +((100 * (after.cpu - before.cpu)) / elapsed).toFixed(2),
    agent_rss_mb: +(after.rss / 1_048_576).toFixed(1),
    agent_peak_rss_mb_in_window: +(peakRss / 1_048_576).toFixed(1),
    load_average_at_start: load.map((l) => +l.toFixed(2)),
    load_average_at_end: os.loadavg().map((l) => +l.toFixed(2)),
    node: process.version,
    date: new Date().toISOString(),
  };
  console.log(JSON.stringify(result, null, 2));
} finally {
  await server.stop();
  await Promise.all(fleet.map((d) => new Promise((resolve) => d.server.close(resolve))));
  fs.rmSync(dataDirectory, { recursive: true, force: true });
}
