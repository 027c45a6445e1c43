// CPU cost of the parse worker's path alone (read → parse → records → convert_timestamps → upload
// batches → commit → KPI history), one worker thread working through one file chunk by chunk with
// nothing else running: a steadier number than the end-to-end bench, for comparing changes to the
// data path. Usage: node bench/worker-cpu.mjs [rows=1000000] [repeats=3] [path=tuned|records|general]
// `tuned` (the default) lets plain chunks take the fused path (scanner → upload bodies,
// transmits/remotedatapost/fused-upload.ts); `records` turns that off (TRIBUTARY_FUSED_PATH=off: rows → records →
// transforms → BSON, the reference); `general` adds a read_csv option (thousands "'", Swiss
// notation; the data has none) so that the same file is read by the parser's general path
// (docs/compatibility.md).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ParseWorkerPool } from '../dist/electron/agent/workers/parse-worker-pool.js';
import { CHUNK_BYTES } from '../dist/electron/agent/receivers/file-source/file-reader.js';
import { AgentStore } from '../dist/electron/agent/store/agent-store.js';
import { writeCsv } from './csv-data.mjs';

const rows = Number(process.argv[2] ?? 1_000_000);
const repeats = Number(process.argv[3] ?? 3);
const general = process.argv[4] === 'general';
// Read by each parse worker when it starts (workers copy the environment).
if (process.argv[4] === 'records') process.env.TRIBUTARY_FUSED_PATH = 'off';
const logger = { info() {}, warn() {}, error: (...a) => console.error(...a), debug() {} };

async function runOnce(dir, file, size) {
  const storeFile = path.join(dir, `agent-${Date.now()}.db`);
  new AgentStore(storeFile).close();
  const worker = new ParseWorkerPool(logger, 1);
  const plan = {
    id: `bench-${storeFile}`,
    storeFile,
    receiver: 'bench',
    stream: { asset: 'Machine_0', stream_type: 'process' },
    transforms: [{ name: 'tz', config: { transform_name: 'tz', transform_type: 'convert_timestamps', filter_stream: ['*'], field_names: ['time'], timezone: 'UTC' } }],
    routes: [{ transmit: 'cloud', type: 'remotedatapost', options: { maxRequestRecords: 3000 }, maxBufferBytes: 2 ** 40 }],
    history: { file: path.join(dir, `kpi-${Date.now()}.db`), retentionMs: 7 * 86_400_000, maxRecords: 5_000_000 },
    returnRecords: false,
  };
  const nowMicros = String(Date.now() * 1000);
  const parser = { parser_name: 'csv', parser_type: 'spreadsheet', file_format: 'csv', file_encoding: 'utf-8', options: { parse: { parse_timestamps: [{ field_name: 'time', format: '%Y-%m-%d %H:%M:%S' }], ...(general ? { thousands: "'" } : {}) } } };
  let offset = 0;
  let state = null;
  let count = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  while (offset < size) {
    const response = await worker.parse({ path: file, fileSize: size, offset, chunkBytes: CHUNK_BYTES, parser, state, final: true, file: { size, mtimeMs: 0, fingerprint: 'f' }, recordIdPrefix: '0123456789abcdef0123', plan, nowMicros });
    if (!response.ok) throw new Error(response.error);
    offset += response.consumedBytes;
    state = response.state;
    count += response.rows;
  }
  const cpu = process.cpuUsage(cpu0);
  const seconds = (performance.now() - t0) / 1000;
  await worker.close();
  if (count !== rows) throw new Error(`read ${count} rows, expected ${rows}`);
  return { rows, seconds: +seconds.toFixed(2), rows_per_second: Math.round(rows / seconds), cpu_us_per_row: +((cpu.user + cpu.system) / rows).toFixed(2) };
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-worker-cpu-'));
const file = path.join(dir, 'm0.csv');
writeCsv(file, 0, rows);
const size = fs.statSync(file).size;
const results = [];
for (let i = 0; i < repeats; i += 1) results.push(await runOnce(dir, file, size));
fs.rmSync(dir, { recursive: true, force: true });
console.table(results);
