import { BSON } from 'bson';
import fc from 'fast-check';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_QUALITY, type QualitySettings } from '../../../../shared/config/data-quality-rules.js';
import { type Parser, ParserSchema } from '../../../../shared/config/schema.js';
import { builtInComponents } from '../../catalog/built-in.js';
import type { RecordHistory } from '../../kpi/record-history.js';
import { BatchCommitter, type CommitPlan, type CommitTargets } from '../../pipeline/batch-committer.js';
import { DocumentHandler } from '../../threads/document-handler.js';
import type { ParseRequest, ParseResponse } from '../../components/parse-protocol.js';
import type { AgentStore } from '../../store/agent-store.js';
import { FusedJsonLines } from './fused-json-lines.js';
import { LineScanner } from './json-line-scanner.js';

/** Lines the scanner wrote itself, and lines it left to readJsonLine. */
const scanned = { fast: 0, general: 0 };
const scan = LineScanner.prototype.scan;
LineScanner.prototype.scan = function (this: LineScanner, ...args: Parameters<typeof scan>) {
  const taken = scan.apply(this, args);
  scanned[taken ? 'fast' : 'general'] += 1;
  return taken;
};

const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-fused-lines-'));
afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

/** Everything a batch's commit hands to the databases, in order (payloads also unzipped, to read a difference). */
function recordingTargets(log: unknown[]): CommitTargets {
  const store = {
    commit: (...args: unknown[]) => {
      const unzipped = (payload: Buffer) => (payload[0] === 0x1f ? zlib.gunzipSync(payload).toString('hex') : null);
      const entries = (args[2] as { payload: Buffer }[]).map((e) => ({ ...e, bson: unzipped(e.payload) }));
      log.push({ commit: [...args.slice(0, 2), entries, ...args.slice(3)] });
    },
  } as unknown as AgentStore;
  const history = {
    rememberEncoded: (batches: unknown, received: unknown) => log.push({ rememberEncoded: [batches, received] }),
    remember: (records: unknown, received: unknown) => log.push({ remember: [records, received] }),
  } as unknown as RecordHistory;
  return { store: () => store, history: () => history };
}

/** Reads a file to its end as the file reader asks for it (each answer's state into the next request). */
function readFile(file: string, parser: Parser, plan: CommitPlan, fused: boolean, state: unknown = null) {
  const log: unknown[] = [];
  const committer = new BatchCommitter(builtInComponents(), recordingTargets(log));
  const path = fused ? new FusedJsonLines(committer) : null;
  let fusedBatches = 0;
  if (path) {
    const read = path.read.bind(path);
    path.read = (request) => {
      const batch = read(request);
      if (batch) fusedBatches += 1;
      return batch;
    };
  }
  const handler = new DocumentHandler(committer, path);
  const size = fs.statSync(file).size;
  const responses: ParseResponse[] = [];
  for (let id = 0; id < 200; id += 1) {
    const request: ParseRequest = {
      id, path: file, fileSize: size, offset: 0, chunkBytes: 0, parser, state, final: true,
      file: { size, mtimeMs: 1, fingerprint: 'f1' }, recordIdPrefix: '', plan, nowMicros: '1764000000123456',
    };
    let response: ParseResponse;
    try {
      response = handler.handle(request);
    } catch (cause) {
      // Both paths must fail alike: the parse thread answers the error (none is expected, see below).
      responses.push({ threw: (cause as Error).message } as never);
      break;
    }
    responses.push(response);
    if (!response.ok || response.fatal || response.consumedBytes >= size) break;
    state = response.state;
  }
  handler.close();
  return { responses, log, fusedBatches };
}

const key = fc.oneof(
  { weight: 12, arbitrary: fc.constantFrom('temp', 'a', 'b', 'state', 'machine', 'x y', '', 'Größe') },
  { weight: 1, arbitrary: fc.constantFrom('time', 'größe\u0000', 'a.b', '__proto__', '_bsontype', '1', '07', '-1', 'a\\b') },
);
const string = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom('', 'run', 'Ü-Teil', 'a\\"b', 'tab\there', 'C:\\data', '\u2028', '\ud83d\ude00', 'ok'),
);
/** JSON text of a scalar, as a plant's exporter or a hostile one writes it. */
const scalar = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: -3_000_000_000, max: 3_000_000_000 }).map(String) },
  { weight: 3, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => JSON.stringify(d)) },
  { weight: 2, arbitrary: fc.constantFrom('-0', '0', '1e400', '-1e400', '1e-400', '12345678901234567890', '-9007199254740993', '1.0', '1E2', '0.1e+1', '20.5', '-0.05', '-0.0', '0.1', '99999.99999', '123456789012.345', '1234567890123.456', '0.30000000000000004', '2147483648', '-2147483648', '999999999', '1000000000') },
  { weight: 6, arbitrary: string.map((s) => JSON.stringify(s)) },
  { weight: 2, arbitrary: fc.constantFrom('true', 'false', 'null') },
  { weight: 1, arbitrary: fc.constantFrom('"\\ud800"', '"\\u0000x"', '"a\\/b"', '[1, 2, {"a": 3}]', '[]', '{}', '"\\x"', '01', '+1', '.5', 'tru', 'NaN', '"' + 'y'.repeat(70_000) + '"') },
);
const TIMES = ['"2025-01-01T00:00:00"', '"2026-03-29T02:30:00"', '"2025-06-01T12:00:00Z"', '"2025-06-01T12:00:00.5Z"', '""', 'null', '"not a time"', '17'];
const time = fc.oneof(
  { weight: 12, arbitrary: fc.date({ min: new Date('1971-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true }).map((d) => `"${d.toISOString().slice(0, 19)}"`) },
  { weight: 3, arbitrary: fc.constantFrom(...TIMES) },
);
/** An object's members as text (a key may repeat; nested objects now and then). */
const object: fc.Arbitrary<string> = fc.letrec<{ obj: string }>((tie) => ({
  obj: fc.array(fc.tuple(key, fc.oneof({ weight: 8, arbitrary: scalar }, { weight: 1, arbitrary: tie('obj') }), fc.constantFrom('', ' ', '\t')), { maxLength: 6 })
    .map((members) => `{${members.map(([k, v, ws]) => `${JSON.stringify(k)}:${ws}${v}`).join(',')}}`),
})).obj;

/** A line: mostly a clean record, now and then something hostile. */
const line = fc.oneof(
  { weight: 40, arbitrary: fc.tuple(time, time, fc.constantFrom('M-1', 'M-2'), fc.integer({ min: -50, max: 500 }), fc.double({ noNaN: true, min: -1e6, max: 1e6 }), fc.boolean(), fc.option(scalar))
    .map(([t, since, id, n, d, ok, v]) => `{"time":${t},"machine":{"id":"${id}","since":${since},"state":"run"},"temp":${n},"pressure":${JSON.stringify(d)},"ok":${ok}${v === null ? '' : `,"v":${v}`}}`) },
  { weight: 12, arbitrary: fc.tuple(time, object).map(([t, o]) => (o === '{}' ? `{"time":${t}}` : `{"time":${t},${o.slice(1)}`)) },
  { weight: 4, arbitrary: object },
  { weight: 3, arbitrary: fc.constantFrom('', '   ', '\r', '[1,2]', '42', '"text"', 'null', '{"a":1', '{"a":1}}', '{"a":1}\f', '\ufeff{"a":1}', '{"a":1,}', 'not json', '{"a":"\u0001"}', ' {"a" : 1 } \r') },
  { weight: 1, arbitrary: fc.integer({ min: 200, max: 600 }).map((d) => `${'{"d":'.repeat(d)}1${'}'.repeat(d)}`) },
  { weight: 1, arbitrary: fc.constantFrom(`{"big":"${'z'.repeat(1_100_000)}"}`, `{"a":{"b":1},"a":{"c":2}}`, `{"m":1,"m":{"b":2}}`, `{"b":1,"1":2}`, `{"m":{"b":1,"0":2}}`, '{"time":"1969-12-31T23:59:59"}') },
);
/** Bytes that are not UTF-8 (a truncated sequence, a lone continuation byte) inside a string or a key. */
const BAD_UTF8 = [Buffer.from([0xc3]), Buffer.from([0x80]), Buffer.from([0xe2, 0x82]), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from([0xff])];

const scenario = fc.record({
  lines: fc.array(fc.tuple(line, fc.oneof({ weight: 12, arbitrary: fc.constant(99) }, { weight: 1, arbitrary: fc.integer({ min: 0, max: 9 }) })), { maxLength: 60, size: 'max' }),
  eol: fc.constantFrom('\n', '\n', '\r\n'),
  finalEol: fc.boolean(),
  localtz: fc.constantFrom('UTC', 'Europe/Berlin'),
  format: fc.constantFrom<string | undefined>('%Y-%m-%dT%H:%M:%S', undefined),
  secondTime: fc.boolean(),
  maxRequestRecords: fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 2 }),
  quality: fc.constantFrom<QualitySettings | undefined>(undefined, DEFAULT_QUALITY, { ...DEFAULT_QUALITY, clock: null, schema: true }),
});
type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;

let files = 0;
function build(s: Scenario): { file: string; parser: Parser; plan: CommitPlan } {
  const parts: Buffer[] = [];
  s.lines.forEach(([text, odd], i) => {
    let bytes = Buffer.from(text, 'utf8');
    // Now and then bytes that are not UTF-8 inside a string value or key.
    const keyEnd = bytes.indexOf(0x22, 2);
    const valueStart = keyEnd > 0 ? bytes.indexOf(0x22, keyEnd + 1) + 1 : 0;
    const at = odd < BAD_UTF8.length ? keyEnd : valueStart;
    if (odd < 2 * BAD_UTF8.length && at > 0) bytes = Buffer.concat([bytes.subarray(0, at), BAD_UTF8[odd % BAD_UTF8.length]!, bytes.subarray(at)]);
    parts.push(bytes);
    if (i < s.lines.length - 1 || s.finalEol) parts.push(Buffer.from(s.eol));
  });
  const file = path.join(folder, `f${(files += 1)}.ndjson`);
  fs.writeFileSync(file, Buffer.concat(parts));
  const parse_timestamps = [{ field_name: 'time', ...(s.format ? { format: s.format } : {}) }, ...(s.secondTime ? [{ field_name: 'machine.since' }] : [])];
  const parser = ParserSchema.parse({ parser_name: 'events', parser_type: 'json', options: { lines: true, localtz: s.localtz, parse_timestamps } });
  const plan: CommitPlan = {
    id: 'plan', storeFile: '/nowhere/agent.db', receiver: 'files', stream: { asset: 'Maschine_1', stream_type: 'events' }, transforms: [],
    routes: s.maxRequestRecords.map((max, i) => ({ transmit: `cloud${i}`, type: 'remotedatapost', options: { maxRequestRecords: max }, maxBufferBytes: 2 ** 40 })),
    history: { file: '/nowhere/kpi.db', retentionMs: 1, maxRecords: 1 }, returnRecords: false, quality: s.quality,
  };
  return { file, parser, plan };
}

describe('fused JSON Lines path (lines → BSON upload bodies)', () => {
  it('commits byte for byte what the general path commits, for generated and hostile files', () => {
    let fusedBatches = 0;
    fc.assert(
      fc.property(scenario, (s) => {
        const { file, parser, plan } = build(s);
        const general = readFile(file, parser, plan, false);
        const fused = readFile(file, parser, plan, true);
        fusedBatches += fused.fusedBatches;
        expect(fused.responses).toEqual(general.responses);
        expect(fused.log).toEqual(general.log);
        fs.rmSync(file);
      }),
      { numRuns: 150 },
    );
    // Not vacuous: the fused path took most files (it declines a line over 1 MiB, a time before 1970), the scanner most lines.
    expect(fusedBatches).toBeGreaterThan(75);
    expect(scanned.fast).toBeGreaterThan(scanned.general);
  });

  it('makes the same batches as the reader over files of several batches, cut by count and by text, and goes on from any state', () => {
    fc.assert(
      fc.property(fc.integer({ min: 3990, max: 8100 }), fc.integer({ min: 0, max: 7000 }), fc.boolean(), (count, pad, finalEol) => {
        const text = Array.from({ length: count }, (_, n) => (n % 997 === 5 ? 'broken' : JSON.stringify({ n, time: '2025-01-01T00:00:00', pad: 'p'.repeat(n % 7 === 0 ? pad : 3) }))).join('\n');
        const file = path.join(folder, `big${(files += 1)}.ndjson`);
        fs.writeFileSync(file, text + (finalEol ? '\n' : ''));
        const parser = ParserSchema.parse({ parser_name: 'events', parser_type: 'json', options: { lines: true, parse_timestamps: [{ field_name: 'time' }] } });
        const plan = build({ lines: [], eol: '\n', finalEol: true, localtz: 'UTC', format: undefined, secondTime: false, maxRequestRecords: [3000], quality: DEFAULT_QUALITY }).plan;
        const general = readFile(file, parser, plan, false);
        const fused = readFile(file, parser, plan, true);
        expect(fused.responses).toEqual(general.responses);
        expect(fused.log).toEqual(general.log);
        expect(fused.fusedBatches).toBe(fused.responses.length);
        // From the state after the first batch: a thread that did not read the first (a restart).
        const first = general.responses[0]!;
        if (first.ok && first.consumedBytes === 0) {
          const again = readFile(file, parser, plan, true, first.state);
          expect(again.responses).toEqual(general.responses.slice(1).map((r) => ({ ...r, id: (r as { id: number }).id - 1 })));
        }
        fs.rmSync(file);
      }),
      { numRuns: 3 },
    );
  });

  it('leaves a stream with transforms, record taps or per-field quality checks to the general path', () => {
    const { file, parser, plan } = build({ lines: [['{"time":"2025-01-01T00:00:00","temp":1}', 99]], eol: '\n', finalEol: true, localtz: 'UTC', format: undefined, secondTime: false, maxRequestRecords: [10], quality: undefined });
    const variants: CommitPlan[] = [
      { ...plan, id: 'taps', returnRecords: true },
      { ...plan, id: 'rename', transforms: [{ name: 'r', config: { transform_name: 'r', transform_type: 'rename', filter_stream: ['*'], renames: { temp: 't' } } as never }] },
      { ...plan, id: 'stuck', quality: { ...DEFAULT_QUALITY, stuck: { afterSeconds: 1, minRecords: 2, fields: null } } },
      { ...plan, id: 'csv', routes: [{ transmit: 'db', type: 'sql', options: {}, maxBufferBytes: 2 ** 40 }] },
    ];
    for (const variant of variants) {
      const general = readFile(file, parser, variant, false);
      const fused = readFile(file, parser, variant, true);
      expect(fused.fusedBatches).toBe(0);
      expect(fused.responses).toEqual(general.responses);
    }
    expect(readFile(file, parser, plan, true).fusedBatches).toBe(1);
  });
  it('commits a line with a _bsontype or NUL-named field, and the lines after it, on both paths', () => {
    const lines = ['{"time":"2025-01-01T00:00:00","_bsontype":"Long","v":1}', '{"time":"2025-01-01T00:00:01","a\\u0000b":2}', '{"time":"2025-01-01T00:00:02","v":3}'];
    const { file, parser, plan } = build({ lines: lines.map((l) => [l, 99]), eol: '\n', finalEol: true, localtz: 'UTC', format: undefined, secondTime: false, maxRequestRecords: [10], quality: undefined });
    for (const fused of [false, true]) {
      const { responses, log } = readFile(file, parser, plan, fused);
      expect(responses.map((r) => (r as { threw?: string }).threw)).toEqual([undefined]);
      const bson = (log as { commit?: [unknown, unknown, { bson: string | null }[]] }[]).flatMap((e) => e.commit?.[2] ?? []).map((e) => e.bson);
      const bytes = Buffer.from(bson.find((b) => b !== null)!, 'hex');
      const fields: unknown[] = [];
      for (let at = 0; at < bytes.length; at += bytes.readInt32LE(at)) fields.push(BSON.deserialize(bytes.subarray(at, at + bytes.readInt32LE(at))).fieldvalues);
      expect(fields).toEqual([
        expect.objectContaining({ _bsontype: 'Long', v: 1 }),
        expect.objectContaining({ 'a\uFFFDb': 2 }),
        expect.objectContaining({ v: 3 }),
      ]);
    }
  });
});
