import { describe, expect, it } from 'vitest';
import type { Parser } from '../../../../shared/config/schema.js';
import { builtInComponents } from '../../components/built-in.js';
import type { RecordHistory } from '../../kpi/record-history.js';
import { BatchCommitter, type CommitPlan } from '../../pipeline/batch-committer.js';
import { FusedUploadPath } from '../../pipeline/fused-upload.js';
import type { AgentStore, OutboxEntry } from '../../store/agent-store.js';
import { ChunkHandler, HEADER_CHUNK_BYTES } from './chunk-handler.js';
import { CHUNK_BYTES, RECORD_CHUNK_BYTES } from './file-reader.js';
import type { ParseRequest } from './parse-protocol.js';

const parser: Parser = {
  parser_name: 'csv', parser_type: 'spreadsheet', file_format: 'csv', file_encoding: 'utf-8',
  options: { parse: { parse_timestamps: [{ field_name: 'time', format: '%Y-%m-%d %H:%M:%S' }] } },
} as Parser;
const plan: CommitPlan = {
  id: 'plan', storeFile: 'agent.db', receiver: 'files', stream: { asset: 'M1', stream_type: 'process' }, transforms: [],
  routes: [{ transmit: 'cloud', type: 'remotedatapost', options: { maxRequestRecords: 3000 }, maxBufferBytes: 2 ** 40 }], returnRecords: false,
};

/** A handler whose commits are counted (records a commit, in order), not stored. */
function handler(fused: boolean) {
  const commits: number[] = [];
  const store = { commit: (_r: unknown, _s: unknown, entries: OutboxEntry[]) => commits.push(entries.reduce((n, e) => n + e.records, 0)) } as unknown as AgentStore;
  const committer = new BatchCommitter(builtInComponents(), { store: () => store, history: () => ({}) as RecordHistory });
  return { commits, handler: new ChunkHandler(committer, fused ? new FusedUploadPath(committer) : null) };
}

/** Reads the file as the file reader does: CHUNK_BYTES a request, from where the last one stopped. */
function readAll(bytes: Buffer, fused: boolean) {
  const { commits, handler: h } = handler(fused);
  const consumed: number[] = [];
  let offset = 0;
  let state: unknown = null;
  for (let id = 0; offset < bytes.length && id < 1000; id += 1) {
    const request: ParseRequest = {
      id, path: '/data/m.csv', bytes: bytes.subarray(offset, offset + CHUNK_BYTES), fileSize: bytes.length, offset, chunkBytes: CHUNK_BYTES, parser, state, final: true,
      file: { size: bytes.length, mtimeMs: 0, fingerprint: 'f' }, recordIdPrefix: '0123456789abcdef0123', plan, nowMicros: '1764000000123456',
    };
    const response = h.handle(request);
    if (!response.ok) throw new Error(response.error);
    expect(response.consumedBytes).toBeGreaterThan(0);
    consumed.push(response.consumedBytes);
    offset += response.consumedBytes;
    state = response.state;
  }
  return { consumed, commits, offset };
}

function csv(rows: number, longCell = ''): Buffer {
  const lines = ['time,part,temp,status'];
  for (let i = 0; i < rows; i += 1) lines.push(`2026-01-01 ${String(Math.floor(i / 3600) % 24).padStart(2, '0')}:${String(Math.floor(i / 60) % 60).padStart(2, '0')}:${String(i % 60).padStart(2, '0')},P${i},${(i % 97) / 10},${i === 5 ? longCell : 'ok'}`);
  return Buffer.from(`${lines.join('\n')}\n`);
}

describe('chunk handler', () => {
  it('takes a whole bulk chunk on the fused path: one commit per CHUNK_BYTES read', () => {
    const bytes = csv(40_000);
    const { consumed, commits, offset } = readAll(bytes, true);
    expect(offset).toBe(bytes.length);
    expect(commits.reduce((a, b) => a + b, 0)).toBe(40_000);
    // The first chunk, with the header, is the general path's (the fused one starts from a known
    // header): only its first HEADER_CHUNK_BYTES, so that the general path never runs hot here.
    expect(consumed[0]).toBeLessThanOrEqual(HEADER_CHUNK_BYTES);
    expect(consumed[0]).toBeGreaterThan(HEADER_CHUNK_BYTES - 100);
    expect(consumed.length).toBeGreaterThan(2);
    for (const bytesRead of consumed.slice(1, -1)) expect(bytesRead).toBeGreaterThan(CHUNK_BYTES - 100);
  });

  it('reads at most RECORD_CHUNK_BYTES of a chunk on the general path (records die young), the rest with the next requests: every row once', () => {
    const bytes = csv(40_000);
    const { consumed, commits, offset } = readAll(bytes, false);
    expect(offset).toBe(bytes.length);
    expect(commits.reduce((a, b) => a + b, 0)).toBe(40_000);
    expect(consumed.length).toBeGreaterThan(4);
    for (const bytesRead of consumed.slice(0, -1)) expect(bytesRead).toBeGreaterThan(RECORD_CHUNK_BYTES - 100);
    expect(Math.max(...consumed)).toBeLessThanOrEqual(RECORD_CHUNK_BYTES);
  });

  it('reads a line longer than RECORD_CHUNK_BYTES on the general path from the whole chunk', () => {
    const bytes = csv(2_000, 'x'.repeat(RECORD_CHUNK_BYTES + 10));
    const { consumed, commits, offset } = readAll(bytes, false);
    expect(offset).toBe(bytes.length);
    expect(commits.reduce((a, b) => a + b, 0)).toBe(2_000);
    expect(Math.max(...consumed)).toBeGreaterThan(RECORD_CHUNK_BYTES + 10);
  });
});
