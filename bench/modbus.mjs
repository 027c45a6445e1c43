#!/usr/bin/env node
// Modbus TCP polling cost (issue 52 point 5): N devices × R holding registers read every second.
// Each device is a small Modbus TCP server in this process (function 3 only, its registers count
// up), the agent runs as `serve` in a process of its own with one modbus receiver per device (one
// stream of R uint16 values) and a csv transmit. Reported: the agent's CPU (% of one core) and RSS
// over the measured window, the polls answered per second, and the load average at the start
// (the machine's other work shows there).
// Not part of `npm run bench`: `npm run build:node && node bench/modbus.mjs [--devices 100]
// [--registers 100] [--seconds 60] [--force]`. Refuses to run when the 1-minute load average is
// above 1.5 (a shared machine gives numbers of the other work), unless --force.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { procStats, sleep, startBenchServer } from './bench-server.mjs';
import { FORCE_OPTION, requireQuietMachine } from './quiet.mjs';

const { values: options } = parseArgs({
  options: { ...FORCE_OPTION,
    devices: { type: 'string', default: '100' },
    registers: { type: 'string', default: '100' },
    seconds: { type: 'string', default: '60' },
    warmup: { type: 'string', default: '5' },
    profile: { type: 'string' },
  },
});
const load = requireQuietMachine(options.force);
const devices = Number(options.devices);
const registers = Number(options.registers);
const seconds = Number(options.seconds);
if (!(registers >= 1 && registers <= 125)) throw new Error('--registers: 1..125 (one request per device and poll)');

/** A Modbus TCP device answering function 3 (read holding registers) with values that count up. */
function startDevice() {
  let tick = 0;
  let answered = 0;
  const server = net.createServer((socket) => {
    socket.setNoDelay(true);
    socket.on('error', () => undefined);
    let pending = Buffer.alloc(0);
    socket.on('data', (chunk) => {
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
      while (pending.length >= 12) {
        const request = pending.subarray(0, 12);
        pending = pending.subarray(12);
        const count = request.readUInt16BE(10);
        const answer = Buffer.alloc(9 + count * 2);
        request.copy(answer, 0, 0, 4); // transaction and protocol id
        answer.writeUInt16BE(3 + count * 2, 4);
        answer[6] = request[6];
        answer[7] = 3;
        answer[8] = count * 2;
        tick += 1;
        for (let i = 0; i < count; i += 1) answer.writeUInt16BE((tick + i) & 0xffff, 9 + i * 2);
        socket.write(answer);
        answered += 1;
      }
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ port: server.address().port, server, answered: () => answered })));
}

const fleet = await Promise.all(Array.from({ length: devices }, startDevice));
const dataDirectory = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-bench-modbus-'));
const outbox = path.join(dataDirectory, 'csv');
const server = await startBenchServer(dataDirectory, { nodeFlags: options.profile ? ['--cpu-prof', '--cpu-prof-dir', path.resolve(options.profile)] : [] });
try {
  await server.configure({
    data_receiver: fleet.map((device, d) => ({
      data_receiver_name: `press_${d}`,
      protocol: 'modbus',
      poll_interval: 1,
      connections: [{ host: '127.0.0.1', port: device.port, timeout: 3 }],
      streams: [{ asset: `Press_${d}`, stream_type: 'registers', unit_id: 1, modbus_registers: Array.from({ length: registers }, (_, r) => ({ exportname: `r${r}`, table: 'holding', address: r, data_type: 'uint16' })) }],
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
    devices,
    registers_per_device: registers,
    poll_interval_s: 1,
    seconds: +elapsed.toFixed(1),
    polls_per_second: +((after.answered - before.answered) / elapsed).toFixed(1),
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
