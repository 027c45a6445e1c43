import zlib from 'node:zlib';
import { BSON } from 'bson';
import { describe, expect, it } from 'vitest';
import type { AgentRecord } from '../../../../shared/records/record.js';
import { sortDocuments, splitDocuments } from './bson-documents.js';
import { fernetEncrypt, fernetKeyFromApiKey } from './fernet.js';
import { UPLOAD_OUTBOX, documentSlices, documentsOf } from './upload-outbox.js';
import { countUpload, decodeUpload, sortForUpload } from './wire.js';

const record = (asset: string, second: number, i: number): AgentRecord => ({
  asset,
  stream_type: 'cycle',
  timestamp: new Date(Date.UTC(2026, 0, 5, 6, 0, second)).toISOString().replace('Z', '000Z'),
  capturetime: '2026-01-05T07:00:00.000000Z',
  record_id: `id${String(i).padStart(6, '0')}`,
  fieldvalues: { part: i, state: i % 2 ? 'running' : 'stopped', ok: true, note: null },
});

const encodeBatches = (records: AgentRecord[], maxRequestRecords = 3000) => UPLOAD_OUTBOX.encode(records, { maxRequestRecords });

describe('upload batches in the outbox (UPLOAD_OUTBOX)', () => {
  it('take max_request_records from the transmit configuration', () => {
    expect(UPLOAD_OUTBOX.options({ transmit_type: 'remotedatapost', max_request_records: 1200 })).toEqual({ maxRequestRecords: 1200 });
  });

  it('are gzip of the BSON documents sorted by asset and time, split evenly by max_request_records', () => {
    const records = Array.from({ length: 7 }, (_, i) => record(i % 2 ? 'M2' : 'M1', 50 - i, i));
    const batches = encodeBatches(records, 3);
    expect(batches.map((b) => b.records)).toEqual([3, 2, 2]);
    const decoded = batches.flatMap((b) => documentsOf(b.payload).map((d) => BSON.deserialize(d)));
    expect(decoded.map((d) => d.record_id)).toEqual(sortForUpload(records).map((r) => r.record_id));
    expect(decoded[0]).toMatchObject({ asset: 'M1', stream_type: 'cycle', fieldvalues: { part: 6, state: 'stopped', ok: true, note: null } });
    expect(UPLOAD_OUTBOX.decode(batches[0]!.payload)[0]).toEqual(sortForUpload(records)[0]);
  });

  it('can be merged across batches in upload order', () => {
    const a = encodeBatches([record('M1', 10, 1), record('M1', 30, 2)]);
    const b = encodeBatches([record('M1', 20, 3), record('M0', 40, 4)]);
    const parts = [...a, ...b].map((batch) => {
      const bytes = zlib.gunzipSync(batch.payload);
      return { bytes, ends: splitDocuments(bytes) };
    });
    const merged = documentSlices(sortDocuments(parts));
    expect(merged.map((d) => BSON.deserialize(d).record_id)).toEqual(['id000004', 'id000001', 'id000003', 'id000002']);
  });

  it('are upload bodies once encrypted: decoded and counted like any upload', () => {
    const records = Array.from({ length: 5 }, (_, i) => record('M1', i, i));
    const [batch] = encodeBatches(records, 3000);
    const body = fernetEncrypt(fernetKeyFromApiKey('secret'), batch!.payload);
    expect(decodeUpload(body, { apiKey: 'secret', encrypted: true }).map((d) => d.record_id)).toEqual(records.map((r) => r.record_id));
    expect(countUpload(body, { apiKey: 'secret', encrypted: true })).toBe(5);
    expect(() => countUpload(body, { apiKey: 'wrong', encrypted: true })).toThrow();
  });
});
