import path from 'node:path';
import zlib from 'node:zlib';
import { BSON } from 'bson';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentRecord } from '../../../shared/records/record.js';
import { tempDirectory } from '../../testing/test-host.js';
import { fernetEncrypt, fernetKeyFromApiKey } from '../transmits/remotedatapost/fernet.js';
import { countUpload, decodeUpload, sortForUpload } from '../transmits/remotedatapost/wire.js';
import { AgentStore, OutboxFullError } from './agent-store.js';
import { sortDocuments, splitDocuments } from '../transmits/remotedatapost/bson-documents.js';
import { decodeBatch, documentSlices, documentsOf, encodeBatches } from './outbox-codec.js';

const record = (asset: string, second: number, i: number): AgentRecord => ({
  asset,
  stream_type: 'cycle',
  timestamp: new Date(Date.UTC(2026, 0, 5, 6, 0, second)).toISOString().replace('Z', '000Z'),
  capturetime: '2026-01-05T07:00:00.000000Z',
  record_id: `id${String(i).padStart(6, '0')}`,
  fieldvalues: { part: i, state: i % 2 ? 'running' : 'stopped', ok: true, note: null },
});

const stores: AgentStore[] = [];
afterEach(() => stores.splice(0).forEach((s) => s.close()));
const open = (file: string) => {
  const store = new AgentStore(file);
  stores.push(store);
  return store;
};

describe('upload batches in the outbox', () => {
  it('are gzip of the BSON documents sorted by asset and time, split evenly by max_request_records', () => {
    const records = Array.from({ length: 7 }, (_, i) => record(i % 2 ? 'M2' : 'M1', 50 - i, i));
    const batches = encodeBatches('upload', records, 3);
    expect(batches.map((b) => b.records)).toEqual([3, 2, 2]);
    const decoded = batches.flatMap((b) => documentsOf(b.payload).map((d) => BSON.deserialize(d)));
    expect(decoded.map((d) => d.record_id)).toEqual(sortForUpload(records).map((r) => r.record_id));
    expect(decoded[0]).toMatchObject({ asset: 'M1', stream_type: 'cycle', fieldvalues: { part: 6, state: 'stopped', ok: true, note: null } });
    expect(decodeBatch('upload', batches[0]!.payload)[0]).toEqual(sortForUpload(records)[0]);
  });

  it('can be merged across batches in upload order', () => {
    const a = encodeBatches('upload', [record('M1', 10, 1), record('M1', 30, 2)]);
    const b = encodeBatches('upload', [record('M1', 20, 3), record('M0', 40, 4)]);
    const parts = [...a, ...b].map((batch) => {
      const bytes = zlib.gunzipSync(batch.payload);
      return { bytes, ends: splitDocuments(bytes) };
    });
    const merged = documentSlices(sortDocuments(parts));
    expect(merged.map((d) => BSON.deserialize(d).record_id)).toEqual(['id000004', 'id000001', 'id000003', 'id000002']);
  });

  it('are upload bodies once encrypted: decoded and counted like any upload', () => {
    const records = Array.from({ length: 5 }, (_, i) => record('M1', i, i));
    const [batch] = encodeBatches('upload', records, 3000);
    const body = fernetEncrypt(fernetKeyFromApiKey('secret'), batch!.payload);
    expect(decodeUpload(body, { apiKey: 'secret', encrypted: true }).map((d) => d.record_id)).toEqual(records.map((r) => r.record_id));
    expect(countUpload(body, { apiKey: 'secret', encrypted: true })).toBe(5);
    expect(() => countUpload(body, { apiKey: 'wrong', encrypted: true })).toThrow();
  });

  it('json batches keep records exactly', () => {
    const records = [record('M1', 1, 1)];
    expect(decodeBatch('json', encodeBatches('json', records)[0]!.payload)).toEqual(records);
  });
});

describe('outbox limits', () => {
  it('hold across connections: a commit that would pass the limit commits nothing, progress included', () => {
    const file = path.join(tempDirectory(), 'agent.db');
    const main = open(file);
    const worker = open(file);
    const stream = { asset: 'M1', stream_type: 'cycle' };
    const entry = (bytes: number) => ({ transmit: 'cloud', asset: 'M1', stream_type: 'cycle', format: 'upload' as const, records: 1, payload: Buffer.alloc(bytes) });
    const limits = new Map([['cloud', 1000]]);
    // An empty outbox takes a batch bigger than the limit, so reading can always go on.
    main.commit('r', stream, [entry(1500)], { state: { k: '1' } }, limits);
    expect(() => worker.commit('r', stream, [entry(10)], { state: { k: '2' } }, limits)).toThrow(OutboxFullError);
    expect(main.streamState('r', stream, 'k')).toBe('1');
    main.ack('cloud', main.peekMeta('cloud', 10).map((row) => row.id));
    worker.commit('r', stream, [entry(600)], { state: { k: '3' } }, limits);
    expect(() => main.commit('r', stream, [entry(600)], { state: { k: '4' } }, limits)).toThrow(OutboxFullError);
    main.commit('r', stream, [entry(400)], { state: { k: '5' } }, limits);
    expect(main.backlog('cloud')).toEqual({ batches: 2, records: 2, bytes: 1000 });
    expect(worker.streamState('r', stream, 'k')).toBe('5');
  });
});
