/**
 * Fault suite: file filters that would make a backtracking matcher spin, and invalid ones, never
 * freeze or fail the agent (docs/decisions/0013-file-filters.md).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { filePlant, waitFor } from '../testing/file-plant.js';
import { type TestServer, startTestServer } from '../testing/test-host.js';

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

describe('pathological and invalid file filters', () => {
  it('a pathological glob and a name that makes a backtracking matcher spin: status < 1 s, stop works, matching files are read', async () => {
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
});
