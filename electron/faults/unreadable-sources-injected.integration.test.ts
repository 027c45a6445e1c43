/**
 * Fault suite: a subfolder or a file that cannot be read is skipped with a marker naming it, the rest
 * of the folder is read, the agent answers, and the log says it once per change, not every poll.
 *
 * These tests run as root in CI, and root reads every folder whatever its mode: the permission error
 * is injected where the receiver meets the file system (fs.promises.readdir / open, the calls it
 * makes on the main thread). unreadable-sources.integration.test.ts makes the same failures real,
 * with the server running as an unprivileged user.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PRESS_HEADER, filePlant, pressRows, startPlantServer, waitFor } from '../testing/file-plant.js';
import type { TestServer } from '../testing/test-host.js';

let server: TestServer | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await server?.close();
  server = undefined;
});

const denied = (target: string) => Object.assign(new Error(`EACCES: permission denied, open '${target}'`), { code: 'EACCES', path: target });

/** Calls of a spied fs function for one path. */
const callsFor = (spy: { mock: { calls: unknown[][] } }, target: string) => spy.mock.calls.filter(([p]) => String(p) === target).length;

async function markers(category: string): Promise<{ level: string; message: string }[]> {
  const streams = (await server!.call('GET', '/v1/streams')).json.response as { markers: { category: string; level: string; message: string }[] }[];
  return streams.flatMap((s) => s.markers.filter((m) => m.category === category));
}

async function statusQuickly(): Promise<void> {
  const before = performance.now();
  expect((await server!.call('GET', '/v1/status')).status).toBe(200);
  expect(performance.now() - before).toBeLessThan(1000);
}

const coreLog = () => fs.readFileSync(path.join(server!.dataDirectory, 'logs', 'agent_core.log'), 'utf8');
const linesNaming = (text: string) => coreLog().split('\n').filter((line) => line.includes(text));

describe('unreadable subfolders and files', () => {
  it('skips a subfolder that cannot be read with a marker naming it, and reads the rest of the tree', async () => {
    const plant = filePlant();
    const lostFound = path.join(plant.drop, 'lost+found');
    fs.mkdirSync(lostFound);
    fs.writeFileSync(path.join(lostFound, 'press_9.csv'), PRESS_HEADER + pressRows(90, 92));
    fs.mkdirSync(path.join(plant.drop, 'line2'));
    plant.write('press_1.csv', PRESS_HEADER + pressRows(0, 3));
    plant.write('line2/press_2.csv', PRESS_HEADER + pressRows(20, 22));
    const readdir = fs.promises.readdir.bind(fs.promises);
    let locked = true;
    const spy = vi.spyOn(fs.promises, 'readdir').mockImplementation(((dir: fs.PathLike, options?: unknown) =>
      locked && String(dir) === lostFound ? Promise.reject(denied(lostFound)) : readdir(dir, options as never)) as typeof fs.promises.readdir);
    server = await startPlantServer(plant);

    // The rest of the tree is read; the root folder is not blamed.
    await waitFor(() => plant.delivered('Press_1', 'cycle').length === 5, 15_000, 'the readable files');
    const [skipped] = await waitFor(async () => (await markers('folder_skipped')).length > 0 && markers('folder_skipped'));
    expect(skipped!.level).toBe('warning');
    expect(skipped!.message).toContain(lostFound);
    expect(skipped!.message).toMatch(/permission denied/);
    expect(await markers('source_unavailable')).toEqual([]);
    await statusQuickly();

    // Several polls later the log still has one line about it.
    await waitFor(() => callsFor(spy, lostFound) >= 4, 15_000, 'four polls of the folder');
    expect(linesNaming(`The folder ${lostFound} cannot be read`)).toHaveLength(1);

    // Readable again: its files are read, the marker goes.
    locked = false;
    await waitFor(() => plant.delivered('Press_1', 'cycle').length === 7, 15_000, 'the files of the folder once readable');
    await waitFor(async () => (await markers('folder_skipped')).length === 0, 15_000, 'the marker to clear');
  });

  it('marks a file that cannot be read, logs it once per change of the file, and reads it once it can', async () => {
    const plant = filePlant();
    const lockedFile = path.join(plant.drop, 'press_locked.csv');
    plant.write('press_locked.csv', PRESS_HEADER + pressRows(0, 2));
    plant.write('press_open.csv', PRESS_HEADER + pressRows(10, 13));
    const open = fs.promises.open.bind(fs.promises);
    let locked = true;
    const spy = vi.spyOn(fs.promises, 'open').mockImplementation(((file: fs.PathLike, ...rest: unknown[]) =>
      locked && String(file) === lockedFile ? Promise.reject(denied(lockedFile)) : open(file, ...(rest as [never]))) as typeof fs.promises.open);
    server = await startPlantServer(plant);

    await waitFor(() => plant.delivered('Press_1', 'cycle').length === 3, 15_000, 'the readable file');
    const [failed] = await waitFor(async () => (await markers('read_failed')).length > 0 && markers('read_failed'));
    expect(failed!.message).toContain(lockedFile);
    expect(failed!.message).toMatch(/permission denied/);
    await statusQuickly();

    const reported = `Reading ${lockedFile} failed`;
    await waitFor(() => callsFor(spy, lockedFile) >= 4, 15_000, 'four tries of the file');
    expect(linesNaming(reported)).toHaveLength(1);
    expect(linesNaming(reported)[0]).toMatch(/ERROR/);

    // The file changes: one more line, then quiet again.
    plant.append('press_locked.csv', pressRows(2, 3));
    const tries = callsFor(spy, lockedFile);
    await waitFor(() => callsFor(spy, lockedFile) >= tries + 3, 15_000, 'three more tries');
    expect(linesNaming(reported)).toHaveLength(2);

    locked = false;
    await waitFor(() => plant.delivered('Press_1', 'cycle').length === 6, 15_000, 'the file once readable');
    await waitFor(async () => (await markers('read_failed')).length === 0, 15_000, 'the marker to clear');
    expect(linesNaming(`${lockedFile} can be read again`)).toHaveLength(1);
  });

  it('takes the marker of a file that cannot be read away when the file is removed', async () => {
    const plant = filePlant();
    const lockedFile = path.join(plant.drop, 'press_locked.csv');
    plant.write('press_locked.csv', PRESS_HEADER + pressRows(0, 2));
    const open = fs.promises.open.bind(fs.promises);
    vi.spyOn(fs.promises, 'open').mockImplementation(((file: fs.PathLike, ...rest: unknown[]) =>
      String(file) === lockedFile ? Promise.reject(denied(lockedFile)) : open(file, ...(rest as [never]))) as typeof fs.promises.open);
    server = await startPlantServer(plant);
    await waitFor(async () => (await markers('read_failed')).length > 0, 15_000, 'the marker');
    fs.rmSync(lockedFile);
    await waitFor(async () => (await markers('read_failed')).length === 0, 15_000, 'the marker to go with the file');
    await statusQuickly();
  });
});
