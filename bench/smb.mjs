#!/usr/bin/env node
// SMB read throughput on loopback: the smb receiver's client (dist/, SmbSession) against
// `smbclient get` of the same 200 MB CSV, over a signed and over an encrypted SMB 3.1.1 session, in
// one run. Needs the Samba servers of scripts/ci/start-samba.sh (run as root) and smbclient.
// Usage: npm run build:node && node bench/smb.mjs [--mb 200] [--runs 5] [--large]
// The client reads the file as the receiver does (ranges of CHUNK_BYTES one after the other; with
// --large also in 8 MiB ranges), then smbclient gets it, --runs times in turn; reported: the median
// of each, the median of the per-pair ratios, the CPU seconds of the reading process (smbclient's by
// GNU time, /usr/bin/time) and the load average, since the machine may be shared.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { CHUNK_BYTES } from '../dist/electron/agent/receivers/file-source/file-reader.js';
import { SmbSession } from '../dist/electron/agent/receivers/smb/smb-client.js';
import { FORCE_OPTION, requireQuietMachine } from './quiet.mjs';

const { values } = parseArgs({
  options: { ...FORCE_OPTION,  mb: { type: 'string', default: '200' }, runs: { type: 'string', default: '5' }, large: { type: 'boolean', default: false } },
});
requireQuietMachine(values.force);
const large = values.large;
const bytes = Number(values.mb) * 1024 * 1024;
const runs = Number(values.runs);
const USER = { username: 'tributary', password: 'tributary-smb-pass' };
const SESSIONS = [
  { name: 'signed', share: 'data', folder: '/tmp/tributary-samba/data', protection: 'sign' },
  { name: 'encrypted', share: 'sealed', folder: '/tmp/tributary-samba/sealed', protection: 'encrypt' },
];

/** A CSV of about `size` bytes: time, part, force, a note; written once, linked into each share. */
function prepare() {
  const [first, ...others] = SESSIONS.map((s) => path.join(s.folder, 'bench-smb.csv'));
  if (!fs.existsSync(first) || fs.statSync(first).size < bytes) {
    const out = fs.openSync(first, 'w');
    fs.writeSync(out, 'time,part,force,note\n');
    let written = 0;
    for (let i = 0; written < bytes; ) {
      let block = '';
      for (let k = 0; k < 10_000; k++, i++) block += `2026-01-05 06:${String(Math.floor(i / 60) % 60).padStart(2, '0')}:${String(i % 60).padStart(2, '0')},${i},${(i * 1.5).toFixed(1)},machine note ${i % 97}\n`;
      written += fs.writeSync(out, block);
    }
    fs.closeSync(out);
  }
  fs.chmodSync(first, 0o666);
  for (const other of others) {
    fs.rmSync(other, { force: true });
    fs.linkSync(first, other);
  }
  return fs.statSync(first).size;
}

async function client(session, chunk) {
  const smb = new SmbSession({ host: '127.0.0.1', port: 4445, domain: '', ...USER, share: session.share }, 60_000);
  await smb.connect();
  const security = smb.security;
  const started = performance.now();
  const cpu = process.cpuUsage();
  let offset = 0;
  for (;;) {
    const piece = await smb.read('bench-smb.csv', offset, chunk);
    if (piece.length === 0) break;
    offset += piece.length;
  }
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  smb.close();
  return { seconds, bytes: offset, security, cpu: (used.user + used.system) / 1e6 };
}

function smbclient(session) {
  const started = performance.now();
  // GNU time reports smbclient's CPU seconds (user and system) on the last line of stderr.
  const result = spawnSync(
    '/usr/bin/time',
    ['-f', '%U %S', 'smbclient', `//127.0.0.1/${session.share}`, '-p', '4445', '-U', `${USER.username}%${USER.password}`, '-m', 'SMB3_11', `--client-protection=${session.protection}`, '-c', 'get bench-smb.csv /dev/null'],
    { encoding: 'utf8' },
  );
  if (result.status !== 0) throw new Error(`smbclient failed: ${result.stderr || result.stdout}`);
  const [user, system] = result.stderr.trim().split('\n').at(-1).split(' ').map(Number);
  return { seconds: (performance.now() - started) / 1000, cpu: user + system };
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const load = () => os.loadavg()[0].toFixed(1);

const size = prepare();
const mbps = (seconds) => size / 1024 / 1024 / seconds;
const rows = [];
const loads = [load()];
for (const session of SESSIONS) {
  // Ours and smbclient's one right after the other, run after run: on a machine shared with other
  // work, a pair sees the same load, so the ratio of each pair says more than the best of each.
  const runsOf = { receiver: [], large: [], smbclient: [], ratio: [], receiverCpu: [], smbclientCpu: [] };
  let security;
  for (let run = 0; run < runs; run++) {
    const chunked = await client(session, CHUNK_BYTES);
    if (chunked.bytes !== size) throw new Error(`read ${chunked.bytes} of ${size} bytes`);
    security = chunked.security;
    const get = smbclient(session);
    runsOf.receiver.push(chunked.seconds);
    runsOf.receiverCpu.push(chunked.cpu);
    runsOf.smbclient.push(get.seconds);
    runsOf.smbclientCpu.push(get.cpu);
    runsOf.ratio.push(get.seconds / chunked.seconds);
    if (large) runsOf.large.push((await client(session, 8 * 1024 * 1024)).seconds);
  }
  loads.push(load());
  rows.push({
    session: session.name,
    negotiated: `SMB ${security.dialect}, ${security.encryption ?? security.signing}`,
    'tributary, receiver chunks MB/s': Math.round(mbps(median(runsOf.receiver))),
    ...(large ? { 'tributary, 8 MiB ranges MB/s': Math.round(mbps(median(runsOf.large))) } : {}),
    'smbclient get MB/s': Math.round(mbps(median(runsOf.smbclient))),
    'ratio (median of pairs)': Number(median(runsOf.ratio).toFixed(2)),
    'ratios': runsOf.ratio.map((r) => r.toFixed(2)).join(' '),
    // CPU seconds of the reading process: what a busy machine's scheduler has to find for it.
    'tributary CPU s': Number(median(runsOf.receiverCpu).toFixed(2)),
    'smbclient CPU s': Number(median(runsOf.smbclientCpu).toFixed(2)),
  });
}
console.log(`${(size / 1024 / 1024).toFixed(0)} MB, median of ${runs} runs; load average (1 min) at start and after each session: ${loads.join(', ')}`);
console.table(rows);
console.log(JSON.stringify(rows));
