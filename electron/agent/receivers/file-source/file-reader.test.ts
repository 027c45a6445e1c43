import { describe, expect, it } from 'vitest';
import type { Parser } from '../../../../shared/config/schema.js';
import type { ComponentContext } from '../../components/contract.js';
import { builtInComponents } from '../../catalog/built-in.js';
import type { RecordHistory } from '../../kpi/record-history.js';
import { BatchCommitter, type CommitPlan } from '../../pipeline/batch-committer.js';
import type { AgentStore } from '../../store/agent-store.js';
import { ChunkHandler } from '../../threads/chunk-handler.js';
import { CHUNK_BYTES, readFile } from './file-reader.js';
import type { ParseWorkers } from '../../workers/parse-worker-pool.js';

const parser = { parser_name: 'csv', parser_type: 'spreadsheet', file_format: 'csv', file_encoding: 'utf-8' } as Parser;
const plan: CommitPlan = { id: 'plan', storeFile: 'agent.db', receiver: 'share', stream: { asset: 'M1', stream_type: 'cycle' }, transforms: [], routes: [], returnRecords: true };

/** A remote file read through readFile with the general path (record objects), its fetches and records counted. */
async function readRemote(bytes: Buffer) {
  const fetched: [number, number][] = [];
  const lines: number[] = [];
  const store = { commit() {} } as unknown as AgentStore;
  const committer = new BatchCommitter(builtInComponents(), { store: () => store, history: () => ({}) as RecordHistory });
  const handler = new ChunkHandler(committer, null);
  const worker: ParseWorkers = {
    size: 1,
    parse: async (request) => {
      const response = handler.handleChunk({ ...request, id: 1 });
      if (response.ok && response.commit && 'committed' in response.commit) lines.push(...(response.commit.committed.tapped ?? []).map((r) => Number(r.fieldvalues.n)));
      return { ...response, threadName: 'parse:1' };
    },
  };
  const logger = { thread: 'main', component: 'share', child: () => logger, info() {}, warn() {}, error() {}, debug() {} };
  const context = {
    store: { fileProgress: () => undefined, partsOf: () => [] },
    pipeline: { plan: () => plan, reading() {}, afterCommit() {} },
    clock: { nowMicros: () => 1_764_000_000_000_000n },
    markers: { raise() {}, clear() {} },
    logger,
  } as unknown as ComponentContext;
  const result = await readFile({
    receiver: 'share', stream: plan.stream, file: { path: 'remote/m.csv', size: bytes.length, mtimeMs: 0, settled: true }, parser, context, worker,
    readPrefix: async (length) => bytes.subarray(0, length),
    readRange: async (offset, length) => {
      fetched.push([offset, length]);
      return Buffer.from(bytes.subarray(offset, offset + length));
    },
  });
  return { result, fetched, lines };
}

const csv = (rows: number, long = '') => Buffer.from(`n,text\n${Array.from({ length: rows }, (_, n) => `${n},${n === 7 ? long : 'x'.repeat(n % 50)}\n`).join('')}`);

describe('readFile of a remote file', () => {
  it('fetches each byte once although the general path parses less than a chunk at a time, and reads every row once', async () => {
    const bytes = csv(60_000);
    const { result, fetched, lines } = await readRemote(bytes);
    expect(result.complete).toBe(true);
    expect(lines).toEqual(Array.from({ length: 60_000 }, (_, n) => n));
    // Each request parses at most RECORD_CHUNK_BYTES of its CHUNK_BYTES, yet the fetched ranges tile the file.
    expect(fetched.length).toBeGreaterThan(bytes.length / CHUNK_BYTES + 1);
    let at = 0;
    for (const [offset, length] of fetched) {
      expect(offset).toBe(at);
      at += length;
    }
    expect(at).toBe(bytes.length);
  });

  it('fetches only the missing bytes when a line is longer than the chunk', async () => {
    const bytes = csv(100, 'y'.repeat(1024 * 1024));
    const { result, fetched, lines } = await readRemote(bytes);
    expect(result.complete).toBe(true);
    expect(lines).toEqual(Array.from({ length: 100 }, (_, n) => n));
    expect(fetched.reduce((sum, [, length]) => sum + length, 0)).toBe(bytes.length);
  });
});
