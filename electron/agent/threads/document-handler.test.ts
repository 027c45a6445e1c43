import { BSON } from 'bson';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { ParserSchema } from '../../../shared/config/schema.js';
import { builtInComponents } from '../catalog/built-in.js';
import type { CommitProgress } from '../components/contract.js';
import type { RecordHistory } from '../kpi/record-history.js';
import { DOCUMENT_LIMITS } from '../parsers/document/index.js';
import { BatchCommitter, type CommitPlan } from '../pipeline/batch-committer.js';
import type { AgentStore, OutboxEntry } from '../store/agent-store.js';
import { DocumentHandler, batchRecordsOf } from './document-handler.js';
import type { ParseRequest } from '../components/parse-protocol.js';
import { FusedJsonLines } from '../transmits/remotedatapost/fused-json-lines.js';

const plan: CommitPlan = {
  id: 'plan', storeFile: 'agent.db', receiver: 'files', stream: { asset: 'M1', stream_type: 'events' }, transforms: [],
  routes: [{ transmit: 'cloud', type: 'remotedatapost', options: { maxRequestRecords: 3000 }, maxBufferBytes: 2 ** 40 }], returnRecords: false,
};
const parser = ParserSchema.parse({ parser_name: 'events', parser_type: 'json', options: { lines: true } });
const DOCUMENT_BATCH_RECORDS = batchRecordsOf(parser);

interface Sent { id: string; n: number }
/** The records of each commit (id and field n) and the progress committed with them. */
function harness() {
  const commits: { records: Sent[]; progress: CommitProgress }[] = [];
  const store = {
    commit: (_r: unknown, _s: unknown, entries: OutboxEntry[], progress: CommitProgress) => {
      const records: Sent[] = [];
      for (const entry of entries) {
        const bson = zlib.gunzipSync(entry.payload);
        for (let at = 0; at < bson.length; at += bson.readInt32LE(at)) {
          const doc = BSON.deserialize(bson.subarray(at, at + bson.readInt32LE(at)));
          records.push({ id: String(doc.record_id), n: Number((doc.fieldvalues as { n: number }).n) });
        }
      }
      commits.push({ records, progress });
    },
  } as unknown as AgentStore;
  const committer = new BatchCommitter(builtInComponents(), { store: () => store, history: () => ({}) as RecordHistory });
  return { commits, handler: new DocumentHandler(committer, process.env.TRIBUTARY_FUSED_PATH === 'off' ? null : new FusedJsonLines(committer)) };
}

const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-documents-'));
afterEach(() => fs.rmSync(folder, { recursive: true, force: true }));

function write(name: string, from: number, to: number): string {
  const file = path.join(folder, name);
  fs.mkdirSync(folder, { recursive: true });
  fs.writeFileSync(file, Array.from({ length: to - from }, (_, i) => JSON.stringify({ n: from + i, machine: { id: 'M1' } })).join('\n'));
  return file;
}

/** Requests as the file reader sends them until the file is consumed; the state of each answer goes into the next. */
function readAll(handler: DocumentHandler, file: string, fingerprint: string, state: unknown = null, stopAfter = Infinity, config = parser) {
  const size = fs.statSync(file).size;
  for (let id = 0; id < 1000 && id < stopAfter; id += 1) {
    const request: ParseRequest = {
      id, path: file, fileSize: size, offset: 0, chunkBytes: 0, parser: config, state, final: true,
      file: { size, mtimeMs: 1, fingerprint }, recordIdPrefix: '', plan, nowMicros: '1764000000123456',
    };
    const response = handler.handle(request);
    if (!response.ok) throw new Error(response.error);
    state = response.state;
    if (response.fatal) return { state, fatal: response.fatal.message };
    if (response.consumedBytes >= size) return { state, fatal: undefined };
  }
  return { state, fatal: undefined };
}

describe('document handler', () => {
  it('commits a big file batch by batch, each with the records read so far, the last with the whole file', () => {
    const { commits, handler } = harness();
    const file = write('a.ndjson', 0, DOCUMENT_BATCH_RECORDS * 2 + 5);
    readAll(handler, file, 'f1');
    expect(commits.map((c) => c.records.length)).toEqual([DOCUMENT_BATCH_RECORDS, DOCUMENT_BATCH_RECORDS, 5]);
    expect(commits.flatMap((c) => c.records.map((r) => r.n))).toEqual(Array.from({ length: DOCUMENT_BATCH_RECORDS * 2 + 5 }, (_, i) => i));
    const offsets = commits.map((c) => c.progress.file!.offset);
    expect(offsets).toEqual([0, 0, fs.statSync(file).size]);
    expect(new Set(commits.flatMap((c) => c.records.map((r) => r.id))).size).toBe(DOCUMENT_BATCH_RECORDS * 2 + 5);
  });

  it('cuts a batch of long lines short by their text, sending each record once', () => {
    const { commits, handler } = harness();
    const file = path.join(folder, 'long.ndjson');
    fs.mkdirSync(folder, { recursive: true });
    const pad = 'x'.repeat(4000);
    fs.writeFileSync(file, Array.from({ length: 3000 }, (_, n) => JSON.stringify({ n, pad })).join('\n'));
    readAll(handler, file, 'long');
    const sizes = commits.map((c) => c.records.length);
    expect(sizes.length).toBeGreaterThan(2);
    expect(Math.max(...sizes) * 4000).toBeLessThan(DOCUMENT_LIMITS.batchChars + 4000 * 20);
    expect(commits.flatMap((c) => c.records.map((r) => r.n))).toEqual(Array.from({ length: 3000 }, (_, i) => i));
  });

  it('goes on after a crash from the committed state: no record twice, none lost, the same ids', () => {
    const first = harness();
    const file = write('b.ndjson', 0, DOCUMENT_BATCH_RECORDS + 300);
    const { state } = readAll(first.handler, file, 'f1', null, 1);
    // A new thread (the agent restarted) with the state of the last commit.
    const second = harness();
    readAll(second.handler, file, 'f1', state);
    const sent = [...first.commits, ...second.commits].flatMap((c) => c.records);
    expect(sent.map((r) => r.n)).toEqual(Array.from({ length: DOCUMENT_BATCH_RECORDS + 300 }, (_, i) => i));
    const once = harness();
    readAll(once.handler, file, 'f1');
    expect(sent.map((r) => r.id)).toEqual(once.commits.flatMap((c) => c.records.map((r) => r.id)));
  });

  it('sends only the new records of a file rewritten with more, and all of a file whose content changed', () => {
    const { commits, handler } = harness();
    const file = write('c.ndjson', 0, 10);
    const read = readAll(handler, file, 'f1').state as { records: number; digest: string; ids: string };
    const firstIds = commits.flatMap((c) => c.records.map((r) => r.id));
    commits.length = 0;
    write('c.ndjson', 0, 14);
    readAll(handler, file, 'f2', { records: 0, digest: '', ids: read.ids, previous: { records: read.records, digest: read.digest } });
    const grown = commits.flatMap((c) => c.records);
    expect(grown.map((r) => r.n)).toEqual([10, 11, 12, 13]);
    expect(grown.every((r) => !firstIds.includes(r.id))).toBe(true);
    commits.length = 0;
    write('c.ndjson', 100, 105);
    readAll(handler, file, 'f3', { records: 0, digest: '', ids: read.ids, previous: { records: read.records, digest: read.digest } });
    const changed = commits.flatMap((c) => c.records);
    expect(changed.map((r) => r.n)).toEqual([100, 101, 102, 103, 104]);
    expect(changed.every((r) => !firstIds.includes(r.id))).toBe(true);
  });

  it('sends only the new records of a file that grows twice past a batch, whatever the batches were', () => {
    const { commits, handler } = harness();
    const file = write('g.ndjson', 0, DOCUMENT_BATCH_RECORDS + 5);
    let state = readAll(handler, file, 'g1').state as { records: number; digest: string; ids: string };
    const sentIds = new Set(commits.flatMap((c) => c.records.map((r) => r.id)));
    for (const [to, fingerprint] of [[DOCUMENT_BATCH_RECORDS * 2 + 10, 'g2'], [DOCUMENT_BATCH_RECORDS * 2 + 30, 'g3']] as const) {
      const before = state.records;
      commits.length = 0;
      write('g.ndjson', 0, to);
      state = readAll(handler, file, fingerprint, { records: 0, digest: '', ids: state.ids, previous: { records: state.records, digest: state.digest } }).state as typeof state;
      const sent = commits.flatMap((c) => c.records);
      expect(sent.map((r) => r.n)).toEqual(Array.from({ length: to - before }, (_, i) => before + i));
      expect(sent.filter((r) => sentIds.has(r.id))).toEqual([]);
      for (const r of sent) sentIds.add(r.id);
    }
  });

  it('names the place of a broken document and marks the file read until it changes', () => {
    const { commits, handler } = harness();
    const file = path.join(folder, 'broken.json');
    fs.mkdirSync(folder, { recursive: true });
    fs.writeFileSync(file, '[{"n": 1},\n {"n": 2},\n {"n" 3}]');
    const broken = ParserSchema.parse({ parser_name: 'doc', parser_type: 'json' });
    const { fatal } = readAll(handler, file, 'f', null, Infinity, broken);
    expect(fatal).toMatch(/broken\.json line 3 column \d+: not valid JSON/);
    // The records before the error are kept; the file is done with until it is written again.
    expect(commits.flatMap((c) => c.records.map((r) => r.n))).toEqual([1, 2]);
    expect(commits.at(-1)!.progress.file!.offset).toBe(fs.statSync(file).size);
  });
});
