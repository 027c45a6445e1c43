/**
 * Fault suite: a folder that is slow to list (a huge folder, a stale network mount) never holds up the
 * API. Validation and the look at folders a save makes happen before the save takes its turn, so a stop
 * asked meanwhile is answered at once; a listing that does not finish is cut at its time budget.
 * The slowness is injected where the agent lists folders (fs.promises.readdir): a folder that
 * answers after minutes cannot be made on a test machine.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LIST_BUDGET_MS } from '../agent/receivers/file-preview/source-folders.js';
import { waitFor } from '../testing/file-plant.js';
import { type TestServer, startTestServer, tempDirectory } from '../testing/test-host.js';

let server: TestServer | undefined;
let release: (() => void) | undefined;
afterEach(async () => {
  release?.();
  vi.restoreAllMocks();
  await server?.close();
  server = undefined;
});

const configuration = (folder: string) => ({
  data_receiver: [
    {
      data_receiver_name: 'plant',
      protocol: 'localfile',
      poll_interval: 1,
      connections: [{ root_path: folder }],
      streams: [{ asset: 'Press_1', stream_type: 'cycle', file_filter: ['*.csv'] }],
      parsers: [{ parser_name: 'csv', parser_type: 'spreadsheet' }],
    },
  ],
  transforms: [],
  data_transmit: [],
});

/** readdir of `folder` (and below) waits until released; every other folder lists as usual. */
function slowFolder(folder: string) {
  const readdir = fs.promises.readdir.bind(fs.promises);
  const held = new Promise<void>((resolve) => (release = resolve));
  const spy = vi.spyOn(fs.promises, 'readdir').mockImplementation((async (dir: fs.PathLike, options?: unknown) => {
    if (String(dir).startsWith(folder)) await held;
    return readdir(dir, options as never);
  }) as typeof fs.promises.readdir);
  return { listed: () => spy.mock.calls.some(([dir]) => String(dir).startsWith(folder)) };
}

describe('slow folders', () => {
  it('answers a stop at once while a save is still looking at a folder that does not answer', async () => {
    const folder = tempDirectory('tributary-slow-');
    fs.writeFileSync(path.join(folder, 'press.csv'), 'part\n1\n');
    server = await startTestServer();
    const slow = slowFolder(folder);
    const saving = server.call('POST', '/v1/config', configuration(folder));
    await waitFor(() => slow.listed(), 10_000, 'the save to look at the folder');

    const before = performance.now();
    const stop = await server.call('POST', '/v1/agent/stop');
    expect(stop.status).toBe(200);
    expect(performance.now() - before).toBeLessThan(1000);
    const status = await server.call('GET', '/v1/status');
    expect(status.status).toBe(200);

    // The listing is cut at its budget: the save goes through, without claiming the folder has no file.
    const saved = await saving;
    expect(saved.status).toBe(200);
    expect(JSON.stringify(saved.json.meta?.violations ?? [])).not.toMatch(/No file in/);
  });

  it('cuts a validation listing at its time budget', async () => {
    const folder = tempDirectory('tributary-slow-');
    fs.mkdirSync(path.join(folder, 'deep'));
    server = await startTestServer();
    const readdir = fs.promises.readdir.bind(fs.promises);
    // The top folder answers; its subfolder never does (until the test ends).
    const held = new Promise<void>((resolve) => (release = resolve));
    vi.spyOn(fs.promises, 'readdir').mockImplementation((async (dir: fs.PathLike, options?: unknown) => {
      if (String(dir) === path.join(folder, 'deep')) await held;
      return readdir(dir, options as never);
    }) as typeof fs.promises.readdir);
    const before = performance.now();
    const validated = await server.call('POST', '/v1/config/validate', configuration(folder));
    expect(validated.status).toBe(200);
    expect(performance.now() - before).toBeLessThan(LIST_BUDGET_MS + 2000);
    expect(JSON.stringify(validated.json.response.violations)).not.toMatch(/No file in/);
  });
});
