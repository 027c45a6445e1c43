import { afterEach, describe, expect, it } from 'vitest';
import { type IngestServer, startIngestServer } from './ingest/ingest-server.js';
import { filePlant, waitFor } from './testing/file-plant.js';
import { type ServeProcess, serveProcess } from './testing/serve-process.js';
import { tempDirectory } from './testing/test-host.js';

const KEY_ID = 'crash@tributary.local';
const API_KEY = 'crash-test-key';
let ingest: IngestServer | undefined;
let agent: ServeProcess | undefined;
afterEach(async () => {
  await agent?.crash();
  await ingest?.close();
});

const HEADER = 'time,part,force\n';
const rows = (from: number, to: number) => Array.from({ length: to - from }, (_, k) => `2026-01-05 06:00:00,${from + k},1.5\n`).join('');

describe('kill -9 during ingest and upload', () => {
  it('loses no row; duplicates only from batches in flight, with the same record_id', async () => {
    ingest = await startIngestServer({ keys: { [KEY_ID]: API_KEY } });
    const plant = filePlant();
    plant.config.data_transmit = [
      { transmit_name: 'cloud', transmit_type: 'remotedatapost', filter_stream: ['*'], base_url: ingest.url, API_key: API_KEY, API_key_ID: KEY_ID, timeout: 5, poll_interval: 1, max_request_records: 200 } as never,
    ];
    const dataDirectory = tempDirectory();
    const files = 12;
    const perFile = 2500;
    for (let round = 0; round < 6; round += 1) {
      agent = await serveProcess(['--data-dir', dataDirectory, '--port', '0']);
      if (round === 0) expect((await agent.call('POST', '/v1/config', plant.config)).json.success).toBe(true);
      // Two new files per round, one appended to: reading, committing and uploading all overlap the kill.
      for (const f of [round * 2, round * 2 + 1]) plant.write(`press_${String(f).padStart(2, '0')}.csv`, HEADER + rows(f * perFile, f * perFile + perFile / 2));
      for (const f of [round * 2, round * 2 + 1]) plant.append(`press_${String(f).padStart(2, '0')}.csv`, rows(f * perFile + perFile / 2, f * perFile + perFile));
      await new Promise((r) => setTimeout(r, 1500 + Math.random() * 2500));
      await agent.crash();
    }
    agent = await serveProcess(['--data-dir', dataDirectory, '--port', '0']);
    const expected = files * perFile;
    await waitFor(() => new Set(ingest!.records().map((r) => (r.fieldvalues as { part: number }).part)).size === expected, 60_000, `${expected} distinct rows`);
    const idsByPart = new Map<number, Set<unknown>>();
    for (const record of ingest.records()) {
      const part = (record.fieldvalues as { part: number }).part;
      idsByPart.set(part, (idsByPart.get(part) ?? new Set()).add(record.record_id));
    }
    expect([...idsByPart.keys()].sort((a, b) => a - b)).toEqual(Array.from({ length: expected }, (_, i) => i));
    for (const ids of idsByPart.values()) expect(ids.size).toBe(1);
    const duplicates = ingest.records().length - expected;
    expect(duplicates).toBeLessThan(expected / 2);
  }, 120_000);
});
