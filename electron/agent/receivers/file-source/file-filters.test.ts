import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { filePlant, waitFor } from '../../../test-support/file-plant.js';
import { type TestServer, startTestServer } from '../../../test-support/test-host.js';

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

/** Milliseconds GET /v1/status took. */
async function statusTime(): Promise<number> {
  const started = performance.now();
  const { status } = await server!.call('GET', '/v1/status');
  expect(status).toBe(200);
  return performance.now() - started;
}

describe('file filters in a running agent', () => {
  it('a pathological glob and a long matching-candidate name keep the agent answering (issue 16)', async () => {
    const plant = plantWith([
      { asset: 'Press_1', stream_type: 'cycle', file_filter: ['*a*a*a*a*a*a*a*a*b'] },
      { asset: 'Oven_2', stream_type: 'process', file_filter: ['*.csv'] },
    ]);
    server = await startTestServer();
    expect((await server.call('POST', '/v1/config', plant.config)).json.success).toBe(true);
    // With a backtracking matcher this name froze the main thread: status, stop and SIGTERM went unanswered.
    plant.write(`${'a'.repeat(200)}.csv`, CSV);
    plant.write('a1a2a3a4a5a6a7a8b', CSV);
    const times: number[] = [];
    await waitFor(async () => {
      times.push(await statusTime());
      return plant.delivered('Press_1', 'cycle').length === 2 && plant.delivered('Oven_2', 'process').length === 2;
    }, 20_000, 'both files read');
    times.push(await statusTime());
    expect(Math.max(...times)).toBeLessThan(1000);
    expect((await server.call('POST', '/v1/agent/stop')).json).toEqual({ success: true, response: 'stopped' });
    expect((await server.call('GET', '/v1/status')).json.response.agent.status).toBe('stopped');
  });

  it('refuses an invalid glob or regular expression with a violation at its json_path, and keeps running the saved configuration', async () => {
    const plant = plantWith([{ asset: 'Press_1', stream_type: 'cycle', file_filter: ['press_*.csv'] }]);
    server = await startTestServer();
    expect((await server.call('POST', '/v1/config', plant.config)).json.success).toBe(true);
    const bad = structuredClone(plant.config);
    (bad.data_receiver[0] as { streams: Stream[] }).streams = [
      { asset: 'Press_1', stream_type: 'cycle', file_filter: ['[z-a].csv'] },
      { asset: 'Oven_2', stream_type: 'process', path_filter: ['regex:(a)\\1'] },
    ];
    const { status, json } = await server.call('POST', '/v1/config', bad);
    expect(status).toBe(422);
    expect(json.response.violations).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ json_path: ['data_receiver', 0, 'streams', 0, 'file_filter', 0], level: 'error', description: expect.stringMatching(/range z-a .* runs backwards/) }),
        expect.objectContaining({ json_path: ['data_receiver', 0, 'streams', 1, 'path_filter', 0], level: 'error', description: expect.stringMatching(/backreferences/) }),
      ]),
    );
    expect((await server.call('GET', '/v1/status')).json.response.agent.status).toBe('running');
    plant.write('press_1.csv', CSV);
    await waitFor(() => plant.delivered('Press_1', 'cycle').length === 2, 15_000, 'the saved configuration still reading');
  });

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
