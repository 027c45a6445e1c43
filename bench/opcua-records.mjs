#!/usr/bin/env node
// The OPC UA receiver's own work per value, without server, network or store: one publish a second
// of every tag of every machine (Double values, source timestamps), turned into records per machine
// (StreamRecords.build, stream-records.ts), those encoded and decoded as the csv transmit's
// outbox keeps them (RECORDS_JSON), and committed with their progress (the last values) to a real
// agent store (open-store.ts commitAll, one transaction per publish). Reports CPU µs per value for each part.
// RECORDS_MODULES=a.mjs,b.mjs (builds of stream-records.ts) compares builds in one process, second
// by second in turn, so that a busy machine slows each alike.
// Usage: npm run build:node && node bench/opcua-records.mjs [--tags 20000 --machines 100 --seconds 20]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DataType, DataValue, StatusCodes, Variant } from 'node-opcua';
import { RECORDS_JSON } from '../dist/electron/agent/components/records-json-codec.js';
import { openStore } from '../dist/electron/agent/store/open-store.js';
import { FORCE_OPTION, requireQuietMachine } from './quiet.mjs';

const { values } = parseArgs({ options: { ...FORCE_OPTION,  tags: { type: 'string', default: '20000' }, machines: { type: 'string', default: '100' }, seconds: { type: 'string', default: '20' } } });
requireQuietMachine(values.force);
const MACHINES = Number(values.machines);
const PER = Math.ceil(Number(values.tags) / MACHINES);
const SECONDS = Number(values.seconds);
const WARMUP = 3;
const modules = (process.env.RECORDS_MODULES ?? '../dist/electron/agent/receivers/opcua/stream-records.js').split(',');
const builds = await Promise.all(
  modules.map(async (file) => {
    const { StreamRecords } = await import(file);
    const streams = Array.from({ length: MACHINES }, (_, m) => {
      const tags = Array.from({ length: PER }, (_, i) => ({ node: `ns=2;s=M${m}_T${i}`, exportname: `M${m}_T${i}` }));
      return { tags, records: new StreamRecords({ asset: `Machine_${m}`, stream_type: 'process' }, tags, () => undefined) };
    });
    const store = openStore(path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-bench-records-')), 'agent.db'));
    return { file, streams, store, build: 0, codec: 0, commit: 0, values: 0, ids: [] };
  }),
);
const micros = (used) => used.user + used.system;
const start = Date.parse('2026-11-26T10:00:00Z');
for (let s = 0; s < (SECONDS + WARMUP) * builds.length; s += 1) {
  const one = builds[s % builds.length];
  const second = Math.floor(s / builds.length);
  // What node-opcua hands over for one publish: a DataValue per tag (made outside the measurement).
  const now = new Date(start + second * 1000);
  const publish = one.streams.map(({ tags }) => tags.map((tag, i) => ({ stream: 0, tag, dataValue: new DataValue({ value: new Variant({ dataType: DataType.Double, value: Math.sin(second / 10 + i) * 100 }), statusCode: StatusCodes.Good, sourceTimestamp: now, serverTimestamp: now }) })));
  let before = process.cpuUsage();
  const batches = publish.map((samples, m) => {
    const { records } = one.streams[m];
    const batch = records.build(samples, BigInt(now.getTime()) * 1000n + 500_000n);
    records.committed(batch);
    return batch;
  });
  const built = micros(process.cpuUsage(before));
  before = process.cpuUsage();
  const commits = batches.map((batch, m) => {
    const stream = { asset: `Machine_${m}`, stream_type: 'process' };
    const entries = RECORDS_JSON.encode(batch.records).map((e) => ({ transmit: 'archive', ...stream, format: 'json', records: e.records, payload: e.payload }));
    for (const entry of entries) RECORDS_JSON.decode(entry.payload);
    return { receiver: 'plc', stream, entries, progress: { state: batch.state } };
  });
  const coded = micros(process.cpuUsage(before));
  before = process.cpuUsage();
  one.store.commitAll(commits);
  const committed = micros(process.cpuUsage(before));
  one.store.db.exec('DELETE FROM outbox');
  one.ids.push(batches[0].records[0]?.record_id);
  // The first seconds warm the JIT up.
  if (second < WARMUP) continue;
  one.build += built;
  one.codec += coded;
  one.commit += committed;
  one.values += publish.reduce((n, p) => n + p.length, 0);
}
for (const { file, build, codec, commit, values: count } of builds)
  console.log(JSON.stringify({ module: file, values: count, build_us_per_value: +(build / count).toFixed(2), codec_us_per_value: +(codec / count).toFixed(2), commit_us_per_value: +(commit / count).toFixed(2) }));
for (const { store } of builds) {
  store.db.close();
  fs.rmSync(path.dirname(store.db.name), { recursive: true, force: true });
}
if (builds.length > 1 && builds.some((b) => JSON.stringify(b.ids) !== JSON.stringify(builds[0].ids))) console.log('the builds give different record ids');
