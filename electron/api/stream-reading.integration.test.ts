/**
 * stats.reading of GET /v1/streams while a big file is read and restreamed: a few seconds of
 * reading (12 MB), kept out of the quick unit run.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { waitUntilRead } from '../testing/agent-state.js';
import { filePlant, waitFor } from '../testing/file-plant.js';
import { FLOW_HEADER, PRESS, flowRows, streamFlowFixture, streamStats } from '../testing/stream-flow-fixture.js';

const { startPlant } = streamFlowFixture();

describe('GET /v1/streams stats.reading', () => {
  it('shows the file being read, advancing chunk by chunk, then null; again during a restream', async () => {
    const plant = filePlant();
    const started = await startPlant(plant);
    // About 12 MB: some 24 chunks of 512 KiB (95 of 128 KiB on the general path), read for a second or more.
    const file = path.join(plant.drop, 'press_1.csv');
    const block = flowRows(0, 10_000);
    fs.writeFileSync(file, FLOW_HEADER);
    for (let i = 0; i < 30; i++) fs.appendFileSync(file, block);
    const size = fs.statSync(file).size;

    const watchReading = async () => {
      const seen: number[] = [];
      await waitFor(
        async () => {
          const { reading } = await streamStats(started, 'Press_1');
          if (reading) {
            expect(reading).toMatchObject({ path: file, size });
            if (seen.at(-1) !== reading.bytes_read) seen.push(reading.bytes_read);
          }
          return seen.length >= 3;
        },
        60_000,
        'three different positions of the file being read',
      );
      return seen;
    };
    const first = await watchReading();
    expect(first).toEqual([...first].sort((a, b) => a - b));
    expect(first.at(-1)!).toBeLessThan(size);
    await waitUntilRead(started, 'plant', [{ stream: PRESS, file }], 120_000);
    expect((await streamStats(started, 'Press_1')).reading).toBeNull();
    expect((await streamStats(started, 'Press_1')).records_read).toBe(300_000);

    expect((await started.call('POST', '/v1/restream', { plant: [PRESS] })).json.success).toBe(true);
    const again = await watchReading();
    expect(again[0]!).toBeLessThan(size / 2);
    await waitUntilRead(started, 'plant', [{ stream: PRESS, file }], 120_000);
    const after = await streamStats(started, 'Press_1');
    expect(after.reading).toBeNull();
    expect(after.records_read).toBe(600_000);
  }, 300_000);
});
