import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PRESS_HEADER, filePlant, pressRows, startPlantServer, waitFor } from '../../../testing/file-plant.js';
import type { TestServer } from '../../../testing/test-host.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** 300 rows, about 8 KiB: the last 111 rows lie after the first 4 KiB. */
const ROWS = 300;
const original = PRESS_HEADER + pressRows(0, ROWS);
/** The same bytes up to the last 111 rows, whose force values change in their last digit (same length). */
function replaced(): string {
  const lines = original.split('\n');
  for (let i = lines.length - 1 - 111; i < lines.length - 1; i += 1) {
    const line = lines[i]!;
    lines[i] = line.slice(0, -1) + String((Number(line.at(-1)) + 1) % 10);
  }
  return lines.join('\n');
}

describe('a file replaced by one of the same size with the same first 4 KiB', () => {
  it('is noticed by its last bytes read and read again, its changed rows with new record ids', async () => {
    const plant = filePlant();
    server = await startPlantServer(plant);
    const file = path.join(plant.drop, 'press_1.csv');
    plant.write('press_1.csv', original);
    const first = await waitFor(() => plant.delivered('Press_1', 'cycle').length === ROWS && plant.delivered('Press_1', 'cycle'));

    const next = replaced();
    expect(next.length).toBe(original.length);
    expect(next.slice(0, 4096)).toBe(original.slice(0, 4096));
    expect(next).not.toBe(original);
    fs.writeFileSync(file, next);
    // A copy tool may keep sizes but not times: make the change of time certain.
    const later = new Date(Date.now() + 5000);
    fs.utimesSync(file, later, later);

    const all = await waitFor(() => plant.delivered('Press_1', 'cycle').length >= 2 * ROWS && plant.delivered('Press_1', 'cycle'), 20_000, 'the replaced file read again');
    expect(all).toHaveLength(2 * ROWS);
    const again = all.slice(ROWS);
    const expected = next.trim().split('\n').slice(1).map((line) => line.split(',')[2]);
    expect(again.map((r) => r.force)).toEqual(expected);
    // 111 rows changed: they must not carry the ids of the rows they replace.
    const firstIds = new Set(first.map((r) => r.record_id));
    expect(again.filter((r) => firstIds.has(r.record_id))).toEqual([]);
    const core = fs.readFileSync(path.join(server.dataDirectory, 'logs', 'agent_core.log'), 'utf8');
    expect(core).toMatch(/press_1\.csv was replaced by a file with the same first 4096 bytes/);
  });

  it('is not read again when only its modification time changed (same bytes)', async () => {
    const plant = filePlant();
    server = await startPlantServer(plant);
    const file = path.join(plant.drop, 'press_1.csv');
    plant.write('press_1.csv', original);
    await waitFor(() => plant.delivered('Press_1', 'cycle').length === ROWS);
    const later = new Date(Date.now() + 5000);
    fs.utimesSync(file, later, later);
    // Files dropped after the touch are read after press_1.csv was looked at again (name order).
    plant.write('press_2.csv', PRESS_HEADER + pressRows(500, 502));
    await waitFor(() => plant.delivered('Press_1', 'cycle').length >= ROWS + 2, 20_000, 'press_2.csv');
    plant.write('press_3.csv', PRESS_HEADER + pressRows(600, 602));
    await waitFor(() => plant.delivered('Press_1', 'cycle').length >= ROWS + 4, 20_000, 'press_3.csv');
    expect(plant.delivered('Press_1', 'cycle')).toHaveLength(ROWS + 4);
  });
});
