import fc from 'fast-check';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { Parser, Transform } from '../../../../shared/config/schema.js';
import { builtInComponents } from '../../catalog/built-in.js';
import { ChunkHandler } from '../../threads/chunk-handler.js';
import type { ParseRequest } from '../../components/parse-protocol.js';
import type { AgentStore } from '../../store/agent-store.js';
import type { RecordHistory } from '../../kpi/record-history.js';
import { BatchCommitter, type CommitPlan, type CommitTargets } from '../../pipeline/batch-committer.js';
import { FusedUploadPath } from './fused-upload.js';
import { DEFAULT_QUALITY, type QualitySettings } from '../../../../shared/config/data-quality-rules.js';

/** Everything a chunk's commit hands to the databases, in order. */
function recordingTargets(log: unknown[]): CommitTargets {
  const store = { commit: (...args: unknown[]) => log.push({ commit: args }) } as unknown as AgentStore;
  const history = {
    rememberEncoded: (batches: unknown, received: unknown) => log.push({ rememberEncoded: [batches, received] }),
    remember: (records: unknown, received: unknown) => log.push({ remember: [records, received] }),
  } as unknown as RecordHistory;
  return { store: () => store, history: () => history };
}

interface Run {
  responses: unknown[];
  log: unknown[];
  fusedChunks: number;
}

/** Reads the whole file chunk after chunk as the file reader does (a chunk without a whole line is read again, twice as long). */
function readFile(bytes: Buffer, parser: Parser, plan: CommitPlan, chunkBytes: number, fused: boolean): Run {
  const registry = builtInComponents();
  const log: unknown[] = [];
  const committer = new BatchCommitter(registry, recordingTargets(log));
  const path = fused ? new FusedUploadPath(committer) : null;
  let fusedChunks = 0;
  if (path) {
    const read = path.read.bind(path);
    path.read = (...args) => {
      const result = read(...args);
      if (result) fusedChunks += 1;
      return result;
    };
  }
  const handler = new ChunkHandler(committer, path);
  const responses: unknown[] = [];
  let offset = 0;
  let state: unknown = null;
  let size = chunkBytes;
  for (let id = 0; offset < bytes.length && id < 10_000; id += 1) {
    const slice = bytes.subarray(offset, offset + size);
    const request: ParseRequest = {
      id, path: '/data/m.csv', bytes: slice, fileSize: bytes.length, offset, chunkBytes: size, parser, state, final: true,
      file: { size: bytes.length, mtimeMs: 0, fingerprint: 'f' }, recordIdPrefix: '0123456789abcdef0123', plan, nowMicros: '1764000000123456',
    };
    const response = handler.handleChunk(request);
    responses.push(response);
    if (!response.ok || response.fatal) break;
    if (response.consumedBytes === 0) {
      if (offset + slice.length >= bytes.length) break;
      size *= 2;
      continue;
    }
    offset += response.consumedBytes;
    state = response.state;
    size = chunkBytes;
  }
  return { responses, log, fusedChunks };
}

/** Upload bodies are gzip: compare what they hold (the BSON documents) and the bytes themselves. */
function unzipped(log: unknown[]): unknown[] {
  return log.map((entry) => {
    const commit = (entry as { commit?: unknown[] }).commit;
    if (!commit) return entry;
    const entries = commit[2] as { payload: Buffer }[];
    return { commit: [...commit.slice(0, 2), entries.map((e) => ({ ...e, bson: zlib.gunzipSync(e.payload).toString('hex') })), ...commit.slice(3)] };
  });
}

const NAMES = ['time', 'time2', 'part', 'temp', '1', '20', 'Status', 'größe', 'a b', 'x', 'y', 'zzz'];
const cell = fc.oneof(
  fc.integer({ min: -3_000_000_000, max: 3_000_000_000 }).map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e9, max: 1e9 }).map((d) => String(d)),
  fc.constantFrom('', '007', '-0', '0.0', '1e5', ' 12 ', 'true', 'False', 'TRUE', 'ok', 'Ü-Teil', '.5', '-.5', '12.', '+3', '1234567890123456789', 'NaN', 'x;y', '\t', '٣٤', 'a\u0001b', '\u0001', '1\u0002', '\u0002'),
  fc.string({ maxLength: 6 }).filter((s) => !/[",\n\r]/.test(s)),
);

const UNREADABLE = ['2026-13-01 00:00:00', '1969-12-31 23:59:59', 'x'];
/** A wall time, or an empty or unreadable one now and then. */
const timeCell = fc.oneof(
  { weight: 200, arbitrary: fc.date({ min: new Date('1971-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 19).replace('T', ' ')) },
  { weight: 1, arbitrary: fc.constantFrom('', ' ', '2026-03-29 02:30:00', '2026-10-25 02:30:00') },
  // Unreadable, or before 1970: the fused path leaves those files to the general one.
  { weight: 1, arbitrary: fc.constantFrom(...UNREADABLE) },
);

const scenario = fc.record({
  columns: fc.uniqueArray(fc.constantFrom(...NAMES.slice(2)), { minLength: 1, maxLength: 6 }),
  secondTime: fc.boolean(),
  rows: fc.array(fc.record({ cells: fc.array(cell, { minLength: 6, maxLength: 6 }), time: timeCell, time2: timeCell, blank: fc.integer({ min: 0, max: 30 }), odd: fc.integer({ min: 0, max: 400 }) }), { maxLength: 120 }),
  /** Two files in three without the lines and times the fused path leaves to the general one. */
  clean: fc.integer({ min: 0, max: 2 }).map((n) => n > 0),
  crlf: fc.boolean(),
  localtz: fc.constantFrom('UTC', 'Europe/Berlin', 'America/New_York'),
  badLines: fc.constantFrom('warn', 'skip', 'error'),
  counter: fc.integer({ min: 0, max: 4 }).map((n) => n === 0),
  transforms: fc.array(fc.oneof(
    { weight: 4, arbitrary: fc.record({ kind: fc.constant('rename' as const), from: fc.constantFrom(...NAMES), to: fc.constantFrom(...NAMES, 'renamed') }) },
    { weight: 4, arbitrary: fc.record({ kind: fc.constant('convert' as const), field: fc.constantFrom('time', 'time', 'time2', 'renamed', 'temp'), timezone: fc.constantFrom('UTC', 'Europe/Berlin') }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('filter' as const) }) },
  ), { maxLength: 3 }),
  maxRequestRecords: fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 2 }),
  returnRecords: fc.integer({ min: 0, max: 5 }).map((n) => n === 0),
  chunkBytes: fc.integer({ min: 48, max: 1500 }),
  /** The data-quality watch's settings: its digest of a chunk must not depend on the path either. */
  quality: fc.constantFrom<QualitySettings | undefined>(
    undefined,
    DEFAULT_QUALITY,
    { ...DEFAULT_QUALITY, stuck: { afterSeconds: 1, minRecords: 2, fields: null }, range: { temp: [-100, 100], x: [0, 1e6] } },
    { ...DEFAULT_QUALITY, stuck: { afterSeconds: 1, minRecords: 2, fields: ['part', 'renamed'] }, clock: { maxAheadSeconds: 0, maxBehindSeconds: 0 }, schema: false },
  ),
});

type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;

function build(s: Scenario): { bytes: Buffer; parser: Parser; plan: CommitPlan } {
  const eol = s.crlf ? '\r\n' : '\n';
  const header = ['time', ...(s.secondTime ? ['time2'] : []), ...s.columns];
  const lines = [header.join(',')];
  for (const row of s.rows) {
    for (let b = 0; b < row.blank % 10 && row.blank > 25; b += 1) lines.push('');
    const readable = (time: string) => (UNREADABLE.includes(time) ? '2026-01-01 00:00:00' : time);
    const cells = [s.clean ? readable(row.time) : row.time, ...(s.secondTime ? [s.clean ? readable(row.time2) : row.time2] : []), ...row.cells.slice(0, s.columns.length)];
    // Now and then a line the fused path must leave to the general one: a quote, a cell too many or too few.
    const odd = s.clean ? 0 : row.odd;
    if (odd === 1) cells[cells.length - 1] = `"q,${cells[cells.length - 1]}"`;
    if (odd === 2) cells.push('extra');
    if (odd === 3 && cells.length > 1) cells.pop();
    lines.push(cells.join(','));
  }
  const bytes = Buffer.from(lines.join(eol) + (s.rows.length % 3 === 0 ? '' : eol), 'utf8');
  // Bytes that are no UTF-8 (the readers make U+FFFD of them): \u0001 a lone 0xff, \u0002 a lead
  // byte without its continuation.
  for (let i = 0; i < bytes.length; i += 1) if (bytes[i] === 1) bytes[i] = 0xff; else if (bytes[i] === 2) bytes[i] = 0xc3;
  const parser = {
    parser_name: 'csv', parser_type: 'spreadsheet', file_format: 'csv', file_encoding: 'utf-8',
    options: {
      localtz: s.localtz,
      counter: s.counter,
      parse: { parse_timestamps: [{ field_name: 'time', format: '%Y-%m-%d %H:%M:%S' }], ...(s.secondTime ? { parse_dates: ['time2'] } : {}), bad_lines_action: s.badLines },
    },
  } as unknown as Parser;
  const transforms = s.transforms.map((t, i): { name: string; config: Transform } => {
    const base = { transform_name: `t${i}`, filter_stream: ['*'] };
    if (t.kind === 'rename') return { name: `t${i}`, config: { ...base, transform_type: 'rename', renames: { [t.from]: t.to } } as unknown as Transform };
    if (t.kind === 'convert') return { name: `t${i}`, config: { ...base, transform_type: 'convert_timestamps', field_names: [t.field], timezone: t.timezone } as unknown as Transform };
    return { name: `t${i}`, config: { ...base, transform_type: 'filter', field_name: 'temp', op: 'gt', value: 0 } as unknown as Transform };
  });
  const plan: CommitPlan = {
    id: 'plan', storeFile: '/nowhere/agent.db', receiver: 'files', stream: { asset: 'Maschine_1', stream_type: 'process' }, transforms,
    routes: s.maxRequestRecords.map((max, i) => ({ transmit: `cloud${i}`, type: 'remotedatapost', options: { maxRequestRecords: max }, maxBufferBytes: 2 ** 40 })),
    history: { file: '/nowhere/kpi.db', retentionMs: 1, maxRecords: 1 }, returnRecords: s.returnRecords, quality: s.quality,
  };
  return { bytes, parser, plan };
}

describe('fused upload path (scanner → BSON upload bodies)', () => {
  it('commits byte for byte what the general path commits, for generated files and configurations', () => {
    let fusedChunks = 0;
    fc.assert(
      fc.property(scenario, (s) => {
        const { bytes, parser, plan } = build(s);
        const general = readFile(bytes, parser, plan, s.chunkBytes, false);
        const fused = readFile(bytes, parser, plan, s.chunkBytes, true);
        fusedChunks += fused.fusedChunks;
        expect(fused.responses).toEqual(general.responses);
        expect(unzipped(fused.log)).toEqual(unzipped(general.log));
        expect(fused.log).toEqual(general.log);
      }),
      { numRuns: 400 },
    );
    // Not vacuous: most generated files are plain enough for the fused path.
    expect(fusedChunks).toBeGreaterThan(100);
  });

  it('takes every chunk after the header of a plain file whose stream goes only to remotedatapost, through renames and convert_timestamps', () => {
    fc.assert(
      fc.property(scenario, fc.boolean(), (generated, renameFirst) => {
        const s: Scenario = { ...generated, clean: true, counter: false, returnRecords: false, transforms: [] };
        const { bytes, parser, plan } = build(s);
        const rename = { name: 'r', config: { transform_name: 'r', transform_type: 'rename', filter_stream: ['*'], renames: { time: 'Zeit', [s.columns[0]!]: 'time' } } as unknown as Transform };
        const convert = { name: 'c', config: { transform_name: 'c', transform_type: 'convert_timestamps', filter_stream: ['*'], field_names: [renameFirst ? 'Zeit' : 'time'], timezone: 'Europe/Berlin' } as unknown as Transform };
        plan.transforms = renameFirst ? [rename, convert] : [convert, rename];
        const general = readFile(bytes, parser, plan, s.chunkBytes, false);
        const fused = readFile(bytes, parser, plan, s.chunkBytes, true);
        expect(fused.log).toEqual(general.log);
        expect(fused.responses).toEqual(general.responses);
        const withRows = general.responses.filter((r) => (r as { rows: number }).rows > 0).length;
        const headerChunk = (general.responses[0] as { rows: number }).rows > 0 ? 1 : 0;
        expect(fused.fusedChunks).toBeGreaterThanOrEqual(withRows - headerChunk);
      }),
      { numRuns: 100 },
    );
  });
});
