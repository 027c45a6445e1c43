#!/usr/bin/env node
// SMB read throughput on loopback: the smb receiver's client (dist/, SmbSession) against
// `smbclient get` of the same 200 MB CSV, over a signed and over an encrypted SMB 3.1.1 session, in
// one run. Needs the Samba servers of scripts/ci/start-samba.sh (run as root) and smbclient.
// Usage: npm run build:node && node bench/smb.mjs [--mb 200] [--runs 3]
// The client reads the file as the receiver does (ranges of CHUNK_BYTES, each over its own handle)
// and in 8 MiB ranges; the best of --runs is reported for each, as for smbclient, with the CPU
// seconds of the reading process (smbclient's by GNU time, /usr/bin/time).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { CHUNK_BYTES } from '../dist/electron/agent/receivers/file-source/file-reader.js';
import { SmbSession } from '../dist/electron/agent/receivers/smb/smb-client.js';

const { values } = parseArgs({ options: { mb: { type: 'string', default: '200' }, runs: { type: 'string', default: '3' } } });
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

const size = prepare();
const mbps = (seconds) => size / 1024 / 1024 / seconds;
const rows = [];
for (const session of SESSIONS) {
  const best = { receiver: Infinity, large: Infinity, smbclient: Infinity, receiverCpu: Infinity, smbclientCpu: Infinity };
  let security;
  for (let run = 0; run < runs; run++) {
    const chunked = await client(session, CHUNK_BYTES);
    if (chunked.bytes !== size) throw new Error(`read ${chunked.bytes} of ${size} bytes`);
    security = chunked.security;
    best.receiver = Math.min(best.receiver, chunked.seconds);
    best.receiverCpu = Math.min(best.receiverCpu, chunked.cpu);
    best.large = Math.min(best.large, (await client(session, 8 * 1024 * 1024)).seconds);
    const get = smbclient(session);
    best.smbclient = Math.min(best.smbclient, get.seconds);
    best.smbclientCpu = Math.min(best.smbclientCpu, get.cpu);
  }
  rows.push({
    session: session.name,
    negotiated: `SMB ${security.dialect}, ${security.encryption ?? security.signing}`,
    'tributary, receiver chunks MB/s': Math.round(mbps(best.receiver)),
    'tributary, 8 MiB ranges MB/s': Math.round(mbps(best.large)),
    'smbclient get MB/s': Math.round(mbps(best.smbclient)),
    'ratio (receiver chunks)': Number((best.smbclient / best.receiver).toFixed(2)),
    // CPU seconds of the reading process: what a busy machine's scheduler has to find for it.
    'tributary CPU s': Number(best.receiverCpu.toFixed(2)),
    'smbclient CPU s': Number(best.smbclientCpu.toFixed(2)),
  });
}
console.log(`${(size / 1024 / 1024).toFixed(0)} MB, best of ${runs}`);
console.table(rows);
console.log(JSON.stringify(rows));
