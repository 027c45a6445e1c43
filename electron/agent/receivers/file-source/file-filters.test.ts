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

const CSV = 'time,part,force\n2026-01-05 06:00:00,1,1.5\n2026-01-05 06:00:01,2,3\n';

type Stream = { asset: string; stream_type: string; file_filter?: string[]; path_filter?: string[] };
function plantWith(streams: Stream[]) {
  const plant = filePlant();
  (plant.config.data_receiver[0] as { streams: Stream[] }).streams = streams;
  return plant;
}

describe('file filters in a running agent', () => {
  it('reads files by path_filter and by regular expression', async () => {
    const plant = plantWith([
      { asset: 'Press_1', stream_type: 'cycle', path_filter: ['line1/**/*.csv'] },
      { asset: 'Oven_2', stream_type: 'process', file_filter: ['regex:oven_\\d{2}\\.csv'] },
    ]);
    server = await startTestServer();
    expect((await server.call('POST', '/v1/config', plant.config)).json.success).toBe(true);
    fs.mkdirSync(path.join(plant.drop, 'line1', '2026'), { recursive: true });
    fs.mkdirSync(path.join(plant.drop, 'line2'), { recursive: true });
    plant.write('line1/top.csv', CSV);
    plant.write('line1/2026/deep.csv', CSV);
    plant.write('line2/other.csv', CSV); // no stream
    plant.write('oven_12.csv', CSV);
    plant.write('oven_123.csv', CSV); // three digits: no stream
    await waitFor(() => plant.delivered('Press_1', 'cycle').length === 4 && plant.delivered('Oven_2', 'process').length === 2, 15_000, 'rows of the matching files');
    const streams = (await server.call('GET', '/v1/streams')).json.response as { asset: string; markers: unknown[] }[];
    expect(streams.map((s) => s.asset).sort()).toEqual(['Oven_2', 'Press_1']);
  });
});
