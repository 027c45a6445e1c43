import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { filePlant, waitFor } from '../../../testing/file-plant.js';
import { type TestServer, startTestServer } from '../../../testing/test-host.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const csv = (part: string) => `time,part\n2026-01-05 06:00:00,${part}-1\n2026-01-05 06:00:01,${part}-2\n`;

/** Files present before the agent starts (all seen on the same look), one stream, the given order flags. */
async function deliveredOrder(flags: Record<string, boolean>, files: { folder: 0 | 1; name: string; ageSeconds: number }[]): Promise<string[]> {
  const plant = filePlant();
  const second = path.join(plant.root, 'drop2');
  fs.mkdirSync(second);
  const receiver = plant.config.data_receiver[0] as Record<string, unknown>;
  Object.assign(receiver, flags, {
    connections: [{ root_path: plant.drop }, { root_path: second }],
    streams: [{ asset: 'Press_1', stream_type: 'cycle', file_filter: ['*.csv'] }],
  });
  const now = Date.now() / 1000;
  for (const file of files) {
    const target = path.join(file.folder === 0 ? plant.drop : second, file.name);
    fs.writeFileSync(target, csv(file.name.replace('.csv', '')));
    fs.utimesSync(target, now - file.ageSeconds, now - file.ageSeconds);
  }
  await server?.close();
  server = await startTestServer();
  expect((await server.call('POST', '/v1/config', plant.config)).json.success).toBe(true);
  const rows = await waitFor(() => plant.delivered('Press_1', 'cycle').length === files.length * 2 && plant.delivered('Press_1', 'cycle'), 20_000, 'every row');
  return rows.map((r) => r.part!);
}

describe('file order (process_files_alphabetically, process_ordered_connections)', () => {
  const files = [
    { folder: 0 as const, name: 'c.csv', ageSeconds: 300 },
    { folder: 0 as const, name: 'a.csv', ageSeconds: 200 },
    { folder: 1 as const, name: 'b.csv', ageSeconds: 100 },
    { folder: 1 as const, name: 'd.csv', ageSeconds: 400 },
  ];

  it('oldest modification time first, across connections', async () => {
    expect(await deliveredOrder({ process_files_alphabetically: false, process_ordered_connections: false }, files)).toEqual(['d-1', 'd-2', 'c-1', 'c-2', 'a-1', 'a-2', 'b-1', 'b-2']);
  });

  it('by name, connection after connection', async () => {
    expect(await deliveredOrder({ process_files_alphabetically: true, process_ordered_connections: true }, files)).toEqual(['a-1', 'a-2', 'c-1', 'c-2', 'b-1', 'b-2', 'd-1', 'd-2']);
  });

  it('by name across connections; oldest first, connection after connection', async () => {
    expect(await deliveredOrder({ process_files_alphabetically: true, process_ordered_connections: false }, files)).toEqual(['a-1', 'a-2', 'b-1', 'b-2', 'c-1', 'c-2', 'd-1', 'd-2']);
    expect(await deliveredOrder({ process_files_alphabetically: false, process_ordered_connections: true }, files)).toEqual(['c-1', 'c-2', 'a-1', 'a-2', 'd-1', 'd-2', 'b-1', 'b-2']);
  });
});
