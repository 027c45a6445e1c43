import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { waitUntilRead } from '../../../testing/agent-state.js';
import { PRESS_HEADER, filePlant, pressRows, startPlantServer, waitFor } from '../../../testing/file-plant.js';
import { type TestServer, startTestServer, tempDirectory } from '../../../testing/test-host.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const rows = pressRows;
const HEADER = PRESS_HEADER;
const PRESS = { asset: 'Press_1', stream_type: 'cycle' };
const OVEN = { asset: 'Oven_2', stream_type: 'process' };

async function start(plant: ReturnType<typeof filePlant>, dataDirectory = tempDirectory()) {
  server = await startPlantServer(plant, dataDirectory);
  return server;
}

describe('localfile receiver → csv transmit: restarts, restream, delete_completed', () => {
  it('resumes after a restart without duplicates or gaps', async () => {
    const plant = filePlant();
    const dataDirectory = tempDirectory();
    await start(plant, dataDirectory);
    plant.write('press_1.csv', HEADER + rows(0, 10));
    await waitFor(() => plant.delivered('Press_1', 'cycle').length === 10);
    await server!.close();
    plant.append('press_1.csv', rows(10, 15));
    plant.write('oven_1.csv', HEADER + rows(0, 3));
    server = await startTestServer({ dataDirectory });
    await waitUntilRead(server, 'plant', [
      { stream: PRESS, file: path.join(plant.drop, 'press_1.csv') },
      { stream: OVEN, file: path.join(plant.drop, 'oven_1.csv') },
    ]);
    expect(plant.delivered('Press_1', 'cycle').map((r) => r.part)).toEqual(Array.from({ length: 15 }, (_, i) => String(i)));
    expect(plant.delivered('Oven_2', 'process')).toHaveLength(3);
  });

  it('restream sends exactly the named stream again', async () => {
    const plant = filePlant();
    await start(plant);
    plant.write('press_1.csv', HEADER + rows(0, 4));
    plant.write('oven_1.csv', HEADER + rows(0, 3));
    await waitFor(() => plant.delivered('Press_1', 'cycle').length === 4 && plant.delivered('Oven_2', 'process').length === 3);
    const { json } = await server!.call('POST', '/v1/restream', { plant: [{ asset: 'Oven_2', stream_type: 'process' }] });
    expect(json.success).toBe(true);
    await waitFor(() => plant.delivered('Oven_2', 'process').length === 6);
    // Both files read to their end and everything delivered: the press file was not read again.
    await waitUntilRead(server!, 'plant', [
      { stream: PRESS, file: path.join(plant.drop, 'press_1.csv') },
      { stream: OVEN, file: path.join(plant.drop, 'oven_1.csv') },
    ]);
    expect(plant.delivered('Press_1', 'cycle')).toHaveLength(4);
    const oven = plant.delivered('Oven_2', 'process');
    expect(oven.slice(3).map((r) => r.record_id)).toEqual(oven.slice(0, 3).map((r) => r.record_id));
  });

  it('deletes files after reading with delete_completed', async () => {
    const plant = filePlant({ deleteCompleted: true });
    await start(plant);
    plant.write('press_1.csv', HEADER + rows(0, 3));
    await waitFor(() => plant.delivered('Press_1', 'cycle').length === 3);
    await waitFor(() => !fs.existsSync(path.join(plant.drop, 'press_1.csv')), 10_000, 'the file to be deleted');
  });

  it('with delete_completed, does not delete a file that is still being appended to', async () => {
    const plant = filePlant({ deleteCompleted: true });
    await start(plant);
    plant.write('press_1.csv', HEADER);
    let next = 0;
    // Appends until the agent has read part of it while it keeps changing: it is not deleted then,
    // only once quiet.
    const appending = setInterval(() => plant.append('press_1.csv', rows(next, ++next)), 100);
    try {
      await waitFor(() => plant.delivered('Press_1', 'cycle').length >= 5, 15_000, 'rows read while the file keeps changing');
      expect(fs.existsSync(path.join(plant.drop, 'press_1.csv'))).toBe(true);
    } finally {
      clearInterval(appending);
    }
    const total = next;
    const file = path.join(plant.drop, 'press_1.csv');
    await waitFor(() => !fs.existsSync(file), 15_000, 'the file to be deleted once quiet');
    const delivered = await waitFor(() => plant.delivered('Press_1', 'cycle').length >= total && plant.delivered('Press_1', 'cycle'));
    expect(delivered.map((r) => Number(r.part))).toEqual(Array.from({ length: total }, (_, i) => i));
  });
});
