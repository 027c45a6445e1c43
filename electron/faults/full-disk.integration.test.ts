/**
 * Fault suite: the data directory on a real small file system (tmpfs) that fills up while rows
 * arrive. Integration test: needs root to mount (CI runs as root); skipped with the reason otherwise.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../testing/file-plant.js';
import { type ServeProcess, serveProcess } from '../testing/serve-process.js';
import { tempDirectory } from '../testing/test-host.js';
import { type SmallDisk, mountSmallDisk, tmpfsUnavailable } from '../testing/tmpfs.js';

const unavailable = tmpfsUnavailable();
const disks: SmallDisk[] = [];
let agent: ServeProcess | undefined;

afterEach(async () => {
  await agent?.crash();
  agent = undefined;
});
afterAll(() => {
  for (const disk of disks) disk.unmount();
});

const HEADER = 'part,force\n';
const rows = (from: number, to: number) => Array.from({ length: to - from }, (_, k) => `${from + k},1.5\n`).join('');

function configuration(drop: string) {
  return {
    data_receiver: [
      {
        data_receiver_name: 'plant',
        protocol: 'localfile',
        poll_interval: 1,
        connections: [{ root_path: drop }],
        streams: [{ asset: 'Press_1', stream_type: 'cycle', file_filter: ['press_*.csv'] }],
        parsers: [{ parser_name: 'csv', parser_type: 'spreadsheet' }],
      },
    ],
    transforms: [],
    // The default folder, <data-dir>/outbox: on the small disk too.
    data_transmit: [{ transmit_name: 'archive', transmit_type: 'csv', filter_stream: ['*'], poll_interval: 1 }],
  };
}

/** Parts written by the csv transmit, over all its files (a part may appear twice after kill -9). */
function deliveredParts(dataDirectory: string): number[] {
  const outbox = path.join(dataDirectory, 'outbox');
  if (!fs.existsSync(outbox)) return [];
  const parts: number[] = [];
  for (const name of fs.readdirSync(outbox).filter((n) => n.endsWith('.csv'))) {
    const [header, ...lines] = fs.readFileSync(path.join(outbox, name), 'utf8').trimEnd().split('\n');
    const column = header!.split(',').indexOf('part');
    for (const line of lines) parts.push(Number(line.split(',')[column]));
  }
  return parts;
}

/** GET /v1/status, and how long it took. */
async function timedStatus(process: ServeProcess): Promise<{ ms: number; json: any }> {
  const started = performance.now();
  const { status, json } = await process.call('GET', '/v1/status');
  expect(status).toBe(200);
  return { ms: performance.now() - started, json: json.response };
}

describe.skipIf(unavailable !== undefined)(`full disk${unavailable ? ` (skipped: ${unavailable})` : ''}`, () => {
  it('stays up, says "Disk full at <folder>", comes up again on the full disk and loses no row once space returns', async () => {
    const disk = mountSmallDisk(24);
    disks.push(disk);
    const dataDirectory = path.join(disk.directory, 'data');
    const drop = tempDirectory('tributary-drop-');
    agent = await serveProcess(['--data-dir', dataDirectory, '--port', '0']);
    expect((await agent.call('POST', '/v1/config', configuration(drop))).json.success).toBe(true);

    fs.writeFileSync(path.join(drop, 'press_00.csv'), HEADER + rows(0, 1000));
    await waitFor(() => deliveredParts(dataDirectory).length === 1000, 20_000, 'the first file delivered');

    // The disk fills up while rows keep arriving.
    disk.fill();
    for (let f = 1; f <= 4; f += 1) fs.writeFileSync(path.join(drop, `press_${String(f).padStart(2, '0')}.csv`), HEADER + rows(f * 1000, f * 1000 + 1000));
    const problem = await waitFor(async () => (await timedStatus(agent!)).json.agent.problems.find((p: { category: string }) => p.category === 'disk_full'), 20_000, 'a disk_full problem in status');
    expect(problem.message).toMatch(new RegExp(`^Disk full at ${disk.directory}`));
    const marker = await waitFor(async () => (await agent!.call('GET', '/v1/streams')).json.response[0].markers.find((m: { category: string }) => m.category === 'disk_full'));
    expect(marker.message).toContain(`Disk full at ${disk.directory}`);
    const { ms, json } = await timedStatus(agent);
    expect(ms).toBeLessThan(1000);
    expect(json.agent.status).toBe('running');
    expect(agent.child.exitCode).toBeNull();
    expect(deliveredParts(dataDirectory).length).toBe(1000);
    // A save on the full disk is refused in words, and the saved configuration stays as it was.
    const saved = fs.readFileSync(path.join(dataDirectory, 'conf.d', 'tributary.json'), 'utf8');
    const save = await agent.call('POST', '/v1/config', { ...configuration(drop), transforms: [] });
    expect(save.status).toBe(507);
    expect(save.json.error.text).toMatch(new RegExp(`^Disk full at ${disk.directory}/data/conf.d: the configuration cannot be written`));
    expect(fs.readFileSync(path.join(dataDirectory, 'conf.d', 'tributary.json'), 'utf8')).toBe(saved);

    // A restart on the full disk comes up and says so.
    await agent.crash();
    agent = await serveProcess(['--data-dir', dataDirectory, '--port', '0']);
    await waitFor(async () => (await timedStatus(agent!)).json.agent.problems.some((p: { category: string; path: string }) => p.category === 'disk_full' && p.path.startsWith(disk.directory)), 20_000, 'disk_full after the restart');
    expect((await timedStatus(agent)).ms).toBeLessThan(1000);
    // machine_info.disk is the data directory's file system (24 MB, full), not the system disk.
    const usage = await waitFor(async () => {
      const sample = (await timedStatus(agent!)).json.machine_info.disk;
      return sample.total_gb > 0 && sample;
    }, 15_000, 'a disk sample');
    expect(usage.total_gb).toBeLessThan(0.03);
    expect(usage.available_gb).toBeLessThan(0.001);

    // Space returns: the agent resumes by itself and every row arrives.
    disk.free();
    await waitFor(() => new Set(deliveredParts(dataDirectory)).size === 5000, 30_000, 'all 5000 rows');
    expect([...new Set(deliveredParts(dataDirectory))].sort((a, b) => a - b)).toEqual(Array.from({ length: 5000 }, (_, i) => i));
    await waitFor(async () => (await timedStatus(agent!)).json.agent.problems.length === 0, 20_000, 'no problems left');
    const streams = (await agent.call('GET', '/v1/streams')).json.response;
    expect(streams[0].markers.filter((m: { category: string }) => m.category === 'disk_full')).toEqual([]);
  }, 120_000);

  it('takes a csv round back whole when its folder fills up, and writes every row exactly once after', async () => {
    const output = mountSmallDisk(1);
    disks.push(output);
    const folder = path.join(output.directory, 'archive');
    const dataDirectory = tempDirectory();
    const drop = tempDirectory('tributary-drop-');
    agent = await serveProcess(['--data-dir', dataDirectory, '--port', '0', '--allow-write', output.directory]);
    const config = configuration(drop);
    config.data_transmit = [{ transmit_name: 'archive', transmit_type: 'csv', filter_stream: ['*'], poll_interval: 1, directory: folder } as never];
    expect((await agent.call('POST', '/v1/config', config)).status).toBe(200);
    const parts = () => {
      if (!fs.existsSync(folder)) return [];
      return fs.readdirSync(folder).flatMap((name) => {
        const [header, ...lines] = fs.readFileSync(path.join(folder, name), 'utf8').split('\n');
        expect(lines.at(-1)).toBe(''); // every file ends with a whole line
        const columns = header!.split(',');
        return lines.slice(0, -1).map((line) => {
          expect(line.split(',')).toHaveLength(columns.length);
          return Number(line.split(',')[columns.indexOf('part')]);
        });
      });
    };
    fs.writeFileSync(path.join(drop, 'press_00.csv'), HEADER + rows(0, 1000));
    await waitFor(() => parts().length === 1000, 20_000, 'the first rows');
    output.fill();
    fs.writeFileSync(path.join(drop, 'press_01.csv'), HEADER + rows(1000, 3000));
    const marker = await waitFor(async () => (await agent!.call('GET', '/v1/streams')).json.response[0].markers.find((m: { category: string }) => m.category === 'write_failed'), 20_000, 'a write_failed marker');
    expect(marker.message).toMatch(new RegExp(`^Disk full at ${folder}: CSV files cannot be written`));
    const status = (await agent.call('GET', '/v1/status')).json.response;
    expect(status.agent.problems).toContainEqual(expect.objectContaining({ area: 'output:archive', category: 'disk_full', path: folder }));
    // Everything read meanwhile waits in the outbox.
    await waitFor(async () => (await agent!.call('GET', '/v1/status')).json.response.last_data_transmit.archive.backlog_records === 2000, 20_000, '2000 rows queued');
    output.free();
    await waitFor(() => parts().length >= 3000, 30_000, 'all rows');
    expect(parts().sort((a, b) => a - b)).toEqual(Array.from({ length: 3000 }, (_, i) => i));
    await waitFor(async () => (await agent!.call('GET', '/v1/status')).json.response.agent.problems.length === 0, 20_000, 'no problems left');
  }, 120_000);
});
