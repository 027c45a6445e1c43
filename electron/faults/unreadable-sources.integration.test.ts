/**
 * Fault suite, for real: the server runs as an unprivileged user (nobody), so that a root-only
 * subfolder (lost+found) and a root-only file really cannot be read, as on a plant PC. The agent
 * stays up, answers status in under a second, reads the rest of the tree and loses nothing; the
 * subfolder and the file are named by markers. Needs root (to start the server as another user);
 * unreadable-sources-injected.integration.test.ts covers the same with an injected error where root cannot run this.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PRESS_HEADER, csvOutboxRows, pressRows, waitFor } from '../testing/file-plant.js';
import { type ServeProcess, serveProcess } from '../testing/serve-process.js';
import { tempDirectory } from '../testing/test-host.js';

const NOBODY = 65534;
const asRoot = process.platform === 'linux' && process.getuid?.() === 0;

let agent: ServeProcess | undefined;
afterEach(async () => {
  await agent?.crash();
  agent = undefined;
});

/** A folder the unprivileged user owns (temp folders are 0700 and root's). */
function folderFor(user: number, prefix: string): string {
  const folder = tempDirectory(prefix);
  fs.chownSync(folder, user, user);
  return folder;
}

async function statusWithin(ms: number): Promise<void> {
  const before = performance.now();
  expect((await agent!.call('GET', '/v1/status')).status).toBe(200);
  expect(performance.now() - before).toBeLessThan(ms);
}

describe.runIf(asRoot)('unreadable subfolders and files, as an unprivileged user', () => {
  it('skips a root-only subfolder and a root-only file with markers naming them, reads the rest, stays up', async () => {
    const dataDirectory = folderFor(NOBODY, 'tributary-nobody-');
    // The drop belongs to root, readable by all, except lost+found (0700) and locked.csv (0600).
    const drop = tempDirectory('tributary-drop-');
    fs.chmodSync(drop, 0o755);
    const lostFound = path.join(drop, 'lost+found');
    fs.mkdirSync(lostFound, { mode: 0o700 });
    fs.writeFileSync(path.join(lostFound, 'press_9.csv'), PRESS_HEADER + pressRows(90, 92));
    fs.mkdirSync(path.join(drop, 'line2'), { mode: 0o755 });
    fs.writeFileSync(path.join(drop, 'press_1.csv'), PRESS_HEADER + pressRows(0, 3), { mode: 0o644 });
    fs.writeFileSync(path.join(drop, 'line2', 'press_2.csv'), PRESS_HEADER + pressRows(20, 24), { mode: 0o644 });
    const locked = path.join(drop, 'press_locked.csv');
    fs.writeFileSync(locked, PRESS_HEADER + pressRows(50, 52), { mode: 0o600 });

    agent = await serveProcess(['--data-dir', dataDirectory, '--port', '0'], {}, undefined, { uid: NOBODY, gid: NOBODY });
    const saved = await agent.call('POST', '/v1/config', {
      data_receiver: [
        {
          data_receiver_name: 'plant',
          protocol: 'localfile',
          poll_interval: 1,
          connections: [{ root_path: drop }],
          streams: [{ asset: 'Press_1', stream_type: 'cycle', file_filter: ['**/press_*.csv'] }],
          parsers: [{ parser_name: 'csv', parser_type: 'spreadsheet', options: { parse: { parse_timestamps: [{ field_name: 'time', format: '%Y-%m-%d %H:%M:%S' }] } } }],
        },
      ],
      transforms: [],
      data_transmit: [{ transmit_name: 'archive', transmit_type: 'csv', poll_interval: 1 }],
    });
    expect(saved.status).toBe(200);
    // Validation names the subfolder it could not look into.
    expect(JSON.stringify(saved.json.meta.violations ?? [])).toContain(lostFound);

    const outbox = path.join(dataDirectory, 'outbox');
    const delivered = () => csvOutboxRows(outbox, 'Press_1', 'cycle');
    await waitFor(() => delivered().length === 7, 30_000, 'the readable files');
    expect(delivered().map((r) => r.part).sort((a, b) => Number(a) - Number(b))).toEqual(['0', '1', '2', '20', '21', '22', '23']);
    const markers = await waitFor(async () => {
      const streams = (await agent!.call('GET', '/v1/streams')).json.response as { markers: { category: string; message: string }[] }[];
      const found = streams.flatMap((s) => s.markers);
      return found.some((m) => m.category === 'folder_skipped') && found.some((m) => m.category === 'read_failed') && found;
    }, 20_000, 'markers for the folder and the file');
    expect(markers.find((m) => m.category === 'folder_skipped')!.message).toContain(lostFound);
    expect(markers.find((m) => m.category === 'read_failed')!.message).toContain(locked);
    expect(markers.filter((m) => m.category === 'source_unavailable')).toEqual([]);
    await statusWithin(1000);

    // Given to the agent's user: both are read, nothing was lost, the markers go.
    fs.chownSync(lostFound, NOBODY, NOBODY);
    fs.chownSync(locked, NOBODY, NOBODY);
    await waitFor(() => delivered().length === 11, 30_000, 'the folder and the file once readable');
    await waitFor(async () => {
      const streams = (await agent!.call('GET', '/v1/streams')).json.response as { markers: { category: string }[] }[];
      return streams.every((s) => s.markers.every((m) => m.category !== 'folder_skipped' && m.category !== 'read_failed'));
    }, 20_000, 'the markers to clear');
    await statusWithin(1000);
    const core = fs.readFileSync(path.join(dataDirectory, 'logs', 'agent_core.log'), 'utf8');
    // Reported when it started, not every poll.
    expect(core.split('\n').filter((line) => line.includes(`Reading ${locked} failed`))).toHaveLength(1);
  });
});
