// Time of each stage of the data path, measured in isolation on the same rows with the real modules
// (dist/): where the cost of a row goes. Shares add up to 100 % of the measured stages.
import { BSON } from 'bson';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { createSpreadsheetParser } from '../dist/electron/agent/parsers/spreadsheet/index.js';
import { createTransform } from '../dist/electron/agent/transforms/index.js';
import { AgentStore } from '../dist/electron/agent/store/agent-store.js';
import { fernetEncrypt, fernetKeyFromApiKey } from '../dist/electron/agent/transmits/remotedatapost/fernet.js';
import { startIngestServer } from '../dist/electron/ingest/ingest-server.js';
import { isoMicros } from '../dist/shared/records/record.js';

function time(fn) {
  const t0 = process.hrtime.bigint();
  const result = fn();
  return { ms: Number(process.hrtime.bigint() - t0) / 1e6, result };
}

export async function stageBreakdown(rows) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-stages-'));
  const file = path.join(dir, 'data.csv');
  const lines = ['time,part_id,temp_c,pressure_bar,speed_rpm,torque_nm,counter,status'];
  for (let i = 0; i < rows; i += 1) lines.push(`2026-01-01 00:${String(Math.floor(i / 60) % 60).padStart(2, '0')}:${String(i % 60).padStart(2, '0')},P${i},${(180 + (i % 97) * 0.1).toFixed(2)},6.01,${1400 + (i % 50)},52.5,${i},ok`);
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
  const stages = {};
  const read = time(() => fs.readFileSync(file));
  stages.read = read.ms;
  const parser = createSpreadsheetParser({ parser_name: 'csv', parser_type: 'spreadsheet', file_format: 'csv', file_encoding: 'utf-8', options: { parse: { parse_timestamps: [{ field_name: 'time', format: '%Y-%m-%d %H:%M:%S' }] } } });
  const parsed = time(() => parser.parseChunk(read.result, parser.initialState(), true));
  stages.parse = parsed.ms;
  const capturetime = isoMicros(BigInt(Date.now()) * 1000n);
  const records = time(() =>
    parsed.result.rows.map((row) => ({
      asset: 'M1', stream_type: 'process', timestamp: row.timestampMicros === null ? capturetime : isoMicros(row.timestampMicros), capturetime, fieldvalues: row.fieldvalues,
      record_id: crypto.createHash('sha256').update(`M1\0process\0${file}\0x\0${row.line}`).digest('hex').slice(0, 32),
    })),
  );
  stages.records = records.ms;
  const transform = createTransform({ transform_name: 'tz', transform_type: 'convert_timestamps', filter_stream: ['*'], field_names: ['time'], timezone: 'UTC' });
  const transformed = time(() => transform.apply(records.result).records);
  stages.transform = transformed.ms;
  const store = new AgentStore(path.join(dir, 'agent.db'));
  stages.buffer = time(() => {
    for (let i = 0; i < transformed.result.length; i += 3000)
      store.commit('r', { asset: 'M1', stream_type: 'process' }, [{ transmit: 'cloud', asset: 'M1', stream_type: 'process', records: transformed.result.slice(i, i + 3000) }], {});
    const batches = store.peek('cloud', 1_000_000);
    store.ack('cloud', batches.map((b) => b.id));
  }).ms;
  store.close();
  const encoded = time(() => Buffer.concat(transformed.result.map((r) => BSON.serialize({ ...r, timestamp: new Date(r.timestamp), capturetime: new Date(r.capturetime) }))));
  stages.encode = encoded.ms;
  const compressed = time(() => zlib.gzipSync(encoded.result));
  stages.compress = compressed.ms;
  const encrypted = time(() => fernetEncrypt(fernetKeyFromApiKey('k'), compressed.result));
  stages.encrypt = encrypted.ms;
  const ingest = await startIngestServer({ keys: { id: 'k' }, countOnly: true });
  const form = new FormData();
  form.append('sslog', new Blob([encrypted.result]), 'p.tmp');
  const t0 = process.hrtime.bigint();
  await fetch(`${ingest.url}/v1/rdp2/sslogs`, { method: 'PUT', headers: { 'X-SM-API-Key-ID': 'id' }, body: form });
  stages['upload (incl. server decode)'] = Number(process.hrtime.bigint() - t0) / 1e6;
  await ingest.close();
  fs.rmSync(dir, { recursive: true, force: true });
  const total = Object.values(stages).reduce((a, b) => a + b, 0);
  return Object.entries(stages).map(([stage, ms]) => ({ stage, ms_per_million_rows: Math.round((ms / rows) * 1e6), share_percent: +((ms / total) * 100).toFixed(1) }));
}
