// Time of each stage of the data path, measured in isolation on the same rows with the real modules
// (dist/): where the cost of a row goes. Shares add up to 100 % of the measured stages. The parse
// workers run read … history for every chunk; the encode worker encrypts; the main thread uploads.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { createSpreadsheetParser } from '../dist/electron/agent/parsers/spreadsheet/index.js';
import { builtInComponents } from '../dist/electron/agent/catalog/built-in.js';
import { AgentStore } from '../dist/electron/agent/store/agent-store.js';
import { openKpiDatabase } from '../dist/electron/agent/kpi/kpi-database.js';
import { RecordHistory } from '../dist/electron/agent/kpi/record-history.js';
import { recordIdOf, recordIdPrefix } from '../dist/electron/agent/receivers/file-source/record-ids.js';
import { encodeRecords } from '../dist/electron/agent/transmits/remotedatapost/record-bson.js';
import { fernetEncrypt, fernetKeyFromApiKey } from '../dist/electron/agent/transmits/remotedatapost/fernet.js';
import { GZIP_OPTIONS, sortForUpload } from '../dist/electron/agent/transmits/remotedatapost/wire.js';
import { startIngestServer } from '../dist/electron/ingest/ingest-server.js';
import { putMultipart } from '../dist/electron/agent/transmits/remotedatapost/http-upload.js';
import { RECORD_CHUNK_BYTES } from '../dist/electron/agent/receivers/file-source/file-reader.js';
import { isoFromMicros } from '../dist/shared/records/record.js';

const BATCH = 3000;

function time(fn) {
  const t0 = process.hrtime.bigint();
  const result = fn();
  return { ms: Number(process.hrtime.bigint() - t0) / 1e6, result };
}

export async function stageBreakdown(rows) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-stages-'));
  const file = path.join(dir, 'data.csv');
  const lines = ['time,part_id,temp_c,pressure_bar,speed_rpm,torque_nm,counter,status'];
  for (let i = 0; i < rows; i += 1) lines.push(`2026-01-01 ${String(Math.floor(i / 3600) % 24).padStart(2, '0')}:${String(Math.floor(i / 60) % 60).padStart(2, '0')}:${String(i % 60).padStart(2, '0')},P${i},${(180 + (i % 97) * 0.1).toFixed(2)},6.01,${1400 + (i % 50)},52.5,${i},ok`);
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
  const stream = { asset: 'M1', stream_type: 'process' };
  const stages = {};
  const add = (stage, fn) => {
    const t = time(fn);
    stages[stage] = (stages[stage] ?? 0) + t.ms;
    return t.result;
  };
  const bytes = add('read', () => fs.readFileSync(file));
  const parser = createSpreadsheetParser({ parser_name: 'csv', parser_type: 'spreadsheet', file_format: 'csv', file_encoding: 'utf-8', options: { parse: { parse_timestamps: [{ field_name: 'time', format: '%Y-%m-%d %H:%M:%S' }] } } });
  const transform = builtInComponents().createTransform({ transform_name: 'tz', transform_type: 'convert_timestamps', filter_stream: ['*'], field_names: ['time'], timezone: 'UTC' });
  const store = new AgentStore(path.join(dir, 'state', 'agent.db'));
  const db = openKpiDatabase(path.join(dir, 'state', 'kpi.db'));
  const history = new RecordHistory(db, { clock: { nowMicros: () => BigInt(Date.now()) * 1000n }, retentionMs: 7 * 86_400_000, maxRecords: 5_000_000 });
  const key = fernetKeyFromApiKey('k');
  const prefix = recordIdPrefix(stream, file, '4096:abc');
  const bodies = [];
  let state = parser.initialState();
  // Chunk by chunk, as a parse worker runs them on the general path (RECORD_CHUNK_BYTES, batches
  // of max_request_records).
  for (let offset = 0; offset < bytes.length; ) {
    const chunk = bytes.subarray(offset, offset + RECORD_CHUNK_BYTES);
    const parsed = add('parse', () => parser.parseChunk(chunk, state, offset + chunk.length >= bytes.length));
    offset += parsed.consumedBytes;
    state = parsed.state;
    const capturetime = isoFromMicros(Date.now() * 1000);
    const records = add('records', () => parsed.rows.map((row) => ({ asset: stream.asset, stream_type: stream.stream_type, timestamp: row.timestampMicros === null ? capturetime : isoFromMicros(Number(row.timestampMicros)), capturetime, fieldvalues: row.fieldvalues, record_id: recordIdOf(prefix, row.line) })));
    const transformed = add('transform', () => transform.apply(records).records);
    const batches = [];
    for (let i = 0; i < transformed.length; i += BATCH) batches.push(transformed.slice(i, i + BATCH));
    const encoded = add('encode (BSON)', () => batches.map((batch) => encodeRecords(sortForUpload(batch)).bytes));
    const compressed = add('compress', () => encoded.map((b) => zlib.gzipSync(b, GZIP_OPTIONS)));
    add('buffer (commit, read, delete)', () => {
      store.commit('r', stream, compressed.map((payload, i) => ({ transmit: 'cloud', ...stream, format: 'upload', records: batches[i].length, payload })), {}, new Map([['cloud', 2 ** 40]]));
      const ids = store.peekMeta('cloud', 1000).map((row) => row.id);
      store.payloadsOf('cloud', ids);
      store.ack('cloud', ids);
    });
    add('KPI history', () => history.rememberEncoded(compressed.map((payload, i) => ({ ...stream, format: 'upload', payload, records: batches[i].length, first: batches[i][0], last: batches[i][batches[i].length - 1] }))));
    for (const gz of compressed) bodies.push(add('encrypt', () => fernetEncrypt(key, gz)));
  }
  store.close();
  db.close();
  const ingest = await startIngestServer({ keys: { id: 'k' }, countOnly: true });
  const t0 = process.hrtime.bigint();
  const url = new URL(`${ingest.url}/v1/rdp2/sslogs`);
  for (const body of bodies) await putMultipart(url, { 'X-SM-API-Key-ID': 'id' }, { name: 'sslog', fileName: 'p.tmp', body }, new AbortController().signal);
  stages['upload (incl. server verify)'] = Number(process.hrtime.bigint() - t0) / 1e6;
  await ingest.close();
  fs.rmSync(dir, { recursive: true, force: true });
  const total = Object.values(stages).reduce((a, b) => a + b, 0);
  return Object.entries(stages).map(([stage, ms]) => ({ stage, ms_per_million_rows: Math.round((ms / rows) * 1e6), share_percent: +((ms / total) * 100).toFixed(1) }));
}

if (import.meta.url === `file://${process.argv[1]}`) console.table(await stageBreakdown(Number(process.argv[2] ?? 200_000)));
