import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { filePlant, waitFor } from '../../../testing/file-plant.js';
import { SPLIT_HEADER, logLines, oneThreadRead, queuedRecords, splitProgress, splitRows } from '../../../testing/split-reading.js';
import { type TestServer, startTestServer } from '../../../testing/test-host.js';

const STREAM = { asset: 'Press_1', stream_type: 'cycle' };
let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A plant whose records stay in the outbox (its upload server is not there), so that they can be counted there. */
function holdingPlant(parse: Record<string, unknown> = {}) {
  const plant = filePlant({ parse });
  plant.config.data_transmit = [
    { transmit_name: 'held', transmit_type: 'remotedatapost', filter_stream: ['*'], base_url: 'http://127.0.0.1:9', API_key: 'k', API_key_ID: 'id', timeout: 5, poll_interval: 60 } as never,
  ];
  return plant;
}

async function readBy(plant: ReturnType<typeof holdingPlant>, file: string, splitFileBytes: number): Promise<TestServer> {
  const started = await startTestServer({ splitFileBytes });
  expect((await started.call('POST', '/v1/config', plant.config)).json.success).toBe(true);
  await waitFor(() => {
    const progress = splitProgress(started.dataDirectory, file);
    return progress.offset === fs.statSync(file).size && progress.parts === 0;
  }, 60_000, `${path.basename(file)} read to its end`);
  return started;
}

function expectOnce(dataDirectory: string, expected: Map<string, number>): void {
  const records = queuedRecords(dataDirectory);
  const ids = records.map((record) => record.record_id);
  expect(new Set(ids).size).toBe(ids.length); // no duplicate
  expect(ids.length).toBe(expected.size);
  for (const record of records) expect(record.fieldvalues.part, record.record_id).toBe(expected.get(record.record_id!));
}

describe('one big file read by both parse threads', () => {
  it('gives every row of a file with quoted newlines, CRLF and bad lines once, with the record ids of a one-thread read, and reads its growth after the merge', async () => {
    const plant = holdingPlant();
    const file = path.join(plant.drop, 'press_big.csv');
    fs.writeFileSync(file, SPLIT_HEADER + splitRows(0, 12_000));
    server = await readBy(plant, file, 64 * 1024);
    expect(logLines(server.dataDirectory, 'read by two parse threads')).toHaveLength(1);
    expect(logLines(server.dataDirectory, 'both parts read, merged')).toHaveLength(1);
    expectOnce(server.dataDirectory, oneThreadRead(file, STREAM, plant.config.data_receiver[0]!.parsers[0]));
    // Grown after the merge: the tail is read on from the merged progress (small: by one thread).
    fs.appendFileSync(file, splitRows(12_000, 12_100));
    await waitFor(() => splitProgress(server!.dataDirectory, file).offset === fs.statSync(file).size, 20_000, 'the grown tail read');
    expectOnce(server.dataDirectory, oneThreadRead(file, STREAM, plant.config.data_receiver[0]!.parsers[0]));
  }, 120_000);

  it('reads a file with a counter column on one thread (the counter of the second part would depend on the first part\'s bad lines)', async () => {
    const plant = holdingPlant();
    (plant.config.data_receiver[0]!.parsers[0]!.options as Record<string, unknown>).counter = true;
    const file = path.join(plant.drop, 'press_counted.csv');
    fs.writeFileSync(file, SPLIT_HEADER + splitRows(0, 4000));
    server = await readBy(plant, file, 64 * 1024);
    expect(logLines(server.dataDirectory, 'read by two parse threads')).toEqual([]);
    expectOnce(server.dataDirectory, oneThreadRead(file, STREAM, plant.config.data_receiver[0]!.parsers[0]));
  }, 120_000);
});
