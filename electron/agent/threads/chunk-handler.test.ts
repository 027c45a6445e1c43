import { BSON } from 'bson';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { Parser } from '../../../shared/config/schema.js';
import { builtInComponents } from '../catalog/built-in.js';
import type { RecordHistory } from '../kpi/record-history.js';
import { BatchCommitter, type CommitPlan } from '../pipeline/batch-committer.js';
import { FusedUploadPath } from '../transmits/remotedatapost/fused-upload.js';
import type { AgentStore, OutboxEntry } from '../store/agent-store.js';
import { ChunkHandler, HEADER_CHUNK_BYTES } from './chunk-handler.js';
import { CHUNK_BYTES, RECORD_CHUNK_BYTES } from '../receivers/file-source/file-reader.js';
import type { ParseRequest } from '../components/parse-protocol.js';

const parser: Parser = {
  parser_name: 'csv', parser_type: 'spreadsheet', file_format: 'csv', file_encoding: 'utf-8',
  options: { parse: { parse_timestamps: [{ field_name: 'time', format: '%Y-%m-%d %H:%M:%S' }] } },
} as Parser;
const plan: CommitPlan = {
  id: 'plan', storeFile: 'agent.db', receiver: 'files', stream: { asset: 'M1', stream_type: 'process' }, transforms: [],
  routes: [{ transmit: 'cloud', type: 'remotedatapost', options: { maxRequestRecords: 3000 }, maxBufferBytes: 2 ** 40 }], returnRecords: false,
};

/** The lines (from the record ids' last 12 hex digits) of the documents in an upload body. */
function linesOf(payload: Buffer): number[] {
  const bson = zlib.gunzipSync(payload);
  const lines: number[] = [];
  for (let at = 0; at < bson.length; at += bson.readInt32LE(at)) lines.push(Number.parseInt(String(BSON.deserialize(bson.subarray(at, at + bson.readInt32LE(at))).record_id).slice(-12), 16));
  return lines;
}

/** A handler whose commits are recorded (the lines of each commit's records, in order), not stored. */
function handler(fused: boolean) {
  const commits: number[][] = [];
  const store = { commit: (_r: unknown, _s: unknown, entries: OutboxEntry[]) => commits.push(entries.flatMap((e) => linesOf(e.payload))) } as unknown as AgentStore;
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
    const response = h.handleChunk(request);
    if (!response.ok) throw new Error(response.error);
    expect(response.consumedBytes).toBeGreaterThan(0);
    consumed.push(response.consumedBytes);
    offset += response.consumedBytes;
    state = response.state;
  }
  expect(offset).toBe(bytes.length);
  // One commit a request, and every data line (file lines 2…) once, in order.
  expect(commits).toHaveLength(consumed.length);
  return { consumed, lines: commits.flat() };
}

const everyLine = (rows: number) => Array.from({ length: rows }, (_, i) => i + 2);

function csv(rows: number, longCell = ''): Buffer {
  const lines = ['time,part,temp,status'];
  for (let i = 0; i < rows; i += 1) lines.push(`2026-01-01 ${String(Math.floor(i / 3600) % 24).padStart(2, '0')}:${String(Math.floor(i / 60) % 60).padStart(2, '0')}:${String(i % 60).padStart(2, '0')},P${i},${(i % 97) / 10},${i === 5 ? longCell : 'ok'}`);
  return Buffer.from(`${lines.join('\n')}\n`);
}

describe('chunk handler', () => {
  it('takes a whole bulk chunk on the fused path: one commit per CHUNK_BYTES read', () => {
    const bytes = csv(40_000);
    const { consumed, lines } = readAll(bytes, true);
    expect(lines).toEqual(everyLine(40_000));
    // The first chunk, with the header, is the general path's (the fused one starts from a known
    // header): only its first HEADER_CHUNK_BYTES, so that the general path never runs hot here.
    expect(consumed[0]).toBeLessThanOrEqual(HEADER_CHUNK_BYTES);
    expect(consumed[0]).toBeGreaterThan(HEADER_CHUNK_BYTES - 100);
    expect(consumed.length).toBeGreaterThan(2);
    for (const bytesRead of consumed.slice(1, -1)) expect(bytesRead).toBeGreaterThan(CHUNK_BYTES - 100);
  });

  it('reads the header of a file of one chunk or less with its first RECORD_CHUNK_BYTES: not worth a second commit', () => {
    const bytes = csv(8_000);
    expect(bytes.length).toBeLessThan(CHUNK_BYTES);
    const { consumed, lines } = readAll(bytes, true);
    expect(lines).toEqual(everyLine(8_000));
    expect(consumed[0]).toBeGreaterThan(RECORD_CHUNK_BYTES - 100);
    expect(consumed).toHaveLength(2);
  });

  it('reads a header longer than HEADER_CHUNK_BYTES from the whole chunk', () => {
    const columns = Array.from({ length: 3_000 }, (_, i) => `column_${i}`);
    const row = (n: number) => `2026-01-01 00:0${Math.floor(n / 60)}:${String(n % 60).padStart(2, '0')},${columns.map((_, i) => i).join(',')}`;
    const bytes = Buffer.from(`time,${columns.join(',')}\n${Array.from({ length: 300 }, (_, n) => row(n)).join('\n')}\n`);
    const { consumed, lines } = readAll(bytes, true);
    expect(lines).toEqual(everyLine(300));
    expect(consumed[0]).toBeGreaterThan(HEADER_CHUNK_BYTES);
  });

  it('reads at most RECORD_CHUNK_BYTES of a chunk on the general path (records die young), the rest with the next requests: every row once', () => {
    const bytes = csv(40_000);
    const { consumed, lines } = readAll(bytes, false);
    expect(lines).toEqual(everyLine(40_000));
    expect(consumed.length).toBeGreaterThan(4);
    for (const bytesRead of consumed.slice(0, -1)) expect(bytesRead).toBeGreaterThan(RECORD_CHUNK_BYTES - 100);
    expect(Math.max(...consumed)).toBeLessThanOrEqual(RECORD_CHUNK_BYTES);
  });

  it('reads a line longer than RECORD_CHUNK_BYTES on the general path from the whole chunk', () => {
    const bytes = csv(2_000, 'x'.repeat(RECORD_CHUNK_BYTES + 10));
    const { consumed, lines } = readAll(bytes, false);
    expect(lines).toEqual(everyLine(2_000));
    expect(Math.max(...consumed)).toBeGreaterThan(RECORD_CHUNK_BYTES + 10);
  });
});
