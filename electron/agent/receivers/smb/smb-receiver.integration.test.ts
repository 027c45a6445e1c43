/**
 * The smb receiver against a real Samba server (scripts/ci/start-samba.sh), mirroring the localfile
 * tests: files are dropped into the share's folder on disk and must arrive in the csv transmit's
 * outbox exactly once.
 */
import fs from 'node:fs';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type ReadFile, waitUntilRead } from '../../../testing/agent-state.js';
import { waitFor } from '../../../testing/file-plant.js';
import { CHUNK_BYTES } from '../file-source/file-reader.js';
import { type TestServer, startTestServer, tempDirectory } from '../../../testing/test-host.js';
import { SAMBA, requireSamba, restartSamba, sambaPlant } from '../../../testing/samba-test-share.js';

let server: TestServer | undefined;
const plants: ReturnType<typeof sambaPlant>[] = [];
// Every test fails (not just the file) with what to do when Samba is not running.
let sambaMissing: Error | undefined;
beforeAll(async () => {
  sambaMissing = await requireSamba().then(() => undefined, (error: Error) => error);
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  for (const plant of plants.splice(0)) plant.remove();
});

const rows = (from: number, to: number, pad = '') =>
  Array.from({ length: to - from }, (_, k) => `2026-01-05 06:${String(Math.floor((from + k) / 60) % 60).padStart(2, '0')}:${String((from + k) % 60).padStart(2, '0')},${from + k},${(from + k) * 1.5}${pad}\n`).join('');
const HEADER = 'time,part,force\n';
const numbers = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => String(from + i));
const PRESS = { asset: 'Press_1', stream_type: 'cycle' };
/** The share's files as the agent must have read them (see waitUntilRead). */
const readOf = (share: ReturnType<typeof sambaPlant>, name: string, unread = 0): ReadFile => ({ stream: PRESS, file: share.local(name), identity: share.identity(name), unread });

function plant(options: Parameters<typeof sambaPlant>[0] = {}) {
  if (sambaMissing) throw sambaMissing;
  const created = sambaPlant(options);
  plants.push(created);
  return created;
}

async function start(config: unknown, dataDirectory = tempDirectory()) {
  server = await startTestServer({ dataDirectory });
  const saved = await server.call('POST', '/v1/config', config);
  expect(saved.json.success, JSON.stringify(saved.json)).toBe(true);
  return server;
}

async function markersOf(asset: string, category: string) {
  const streams: { asset: string; markers: { category: string; message: string; level: string; timestamp: string; code?: string; params?: Record<string, unknown> }[] }[] = (await server!.call('GET', '/v1/streams')).json.response;
  return streams.find((s) => s.asset === asset)?.markers.find((m) => m.category === category);
}

/** Waits for a marker; a timeout names the markers the stream has instead. */
async function waitForMarker(asset: string, category: string, ms = 30_000) {
  try {
    return await waitFor(() => markersOf(asset, category), ms, `${category} on ${asset}`);
  } catch (error) {
    const streams: { asset: string; markers: unknown[] }[] = (await server!.call('GET', '/v1/streams')).json.response;
    throw new Error(`${(error as Error).message}; markers of ${asset}: ${JSON.stringify(streams.find((s) => s.asset === asset)?.markers)}`);
  }
}

const logLines = async (): Promise<string[]> => (await server!.call('GET', '/v1/log/stream?lines=5000')).json.response;

// Generous: the machine running the tests may be busy; each wait is bounded by its own waitFor.
describe('smb receiver (Samba) → csv transmit', { timeout: 90_000 }, () => {
  it('delivers new files, also from sub-folders, and restreams them with the same record ids', async () => {
    const share = plant({ connection: { domain: 'TRIBUTARY' } });
    await start(share.config);
    share.write('press_1.csv', HEADER + rows(0, 25));
    share.mkdir('line2/old');
    share.write('line2/PRESS_2.CSV', HEADER + rows(100, 103)); // share names ignore case
    share.write('line2/old/oven_1.csv', HEADER + rows(0, 4));
    share.write('line2/notes.txt', 'not data');
    const press = await waitFor(() => share.delivered('Press_1', 'cycle').length === 28 && share.delivered('Press_1', 'cycle'));
    await waitFor(() => share.delivered('Oven_2', 'process').length === 4);
    expect(press.map((r) => r.part).sort((a, b) => Number(a) - Number(b))).toEqual([...numbers(0, 25), ...numbers(100, 103)]);
    expect(press.find((r) => r.part === '0')!.timestamp).toBe('2026-01-05T06:00:00.000000Z');
    expect(new Set(press.map((r) => r.record_id)).size).toBe(28);
    const services = (await server!.call('GET', '/v1/status')).json.response.agent.services;
    expect(services['receiver:plant']).toEqual({ status: 'running', health: 'ok', reason: null });

    const { json } = await server!.call('POST', '/v1/restream', { plant: [{ asset: 'Oven_2', stream_type: 'process' }] });
    expect(json.success).toBe(true);
    const oven = await waitFor(() => share.delivered('Oven_2', 'process').length === 8 && share.delivered('Oven_2', 'process'));
    expect(oven.slice(4).map((r) => r.record_id)).toEqual(oven.slice(0, 4).map((r) => r.record_id));
    expect(share.delivered('Press_1', 'cycle')).toHaveLength(28);
  });

  it('skips a subfolder the user may not open with a marker naming it, reads the rest, and the folder once it may', async () => {
    const share = plant();
    share.mkdir('');
    share.write('press_1.csv', HEADER + rows(0, 3));
    // Root's folder, closed to the share's user: Samba answers access denied (a real failure, Samba runs the user's rights).
    fs.mkdirSync(share.local('locked'), { mode: 0o700 });
    share.write('locked/press_9.csv', HEADER + rows(90, 92));
    await start(share.config);
    await waitFor(() => share.delivered('Press_1', 'cycle').length === 3);
    const marker = await waitForMarker('Press_1', 'folder_skipped');
    expect(marker.level).toBe('warning');
    expect(marker.message).toContain(share.identity('locked'));
    expect(marker.code).toBe('smb.folders_skipped');
    expect(await markersOf('Press_1', 'access_denied')).toBeUndefined();
    fs.chmodSync(share.local('locked'), 0o777);
    await waitFor(() => share.delivered('Press_1', 'cycle').length === 5, 30_000, 'the folder once it may be opened');
    await waitFor(async () => (await markersOf('Press_1', 'folder_skipped')) === undefined, 30_000, 'the marker to clear');
  });

  it('reads appended rows once, and not a half-written last line until it is complete', async () => {
    const share = plant();
    await start(share.config);
    share.write('press_1.csv', HEADER + rows(0, 5));
    await waitFor(() => share.delivered('Press_1', 'cycle').length === 5);
    const partial = '2026-01-05 06:00:08,8,';
    share.append('press_1.csv', rows(5, 8) + partial);
    // The agent read the grown file and committed its position right before the half-written line.
    await waitUntilRead(server!, 'plant', [readOf(share, 'press_1.csv', partial.length)]);
    expect(share.delivered('Press_1', 'cycle')).toHaveLength(8);
    share.append('press_1.csv', '12\n' + rows(9, 10));
    const delivered = await waitFor(() => share.delivered('Press_1', 'cycle').length === 10 && share.delivered('Press_1', 'cycle'));
    expect(delivered.map((r) => r.part)).toEqual(numbers(0, 10));
    expect(delivered[8]!.force).toBe('12');
  });

  it('reads a rewritten file again from the start', async () => {
    const share = plant();
    await start(share.config);
    share.write('press_1.csv', HEADER + rows(0, 10));
    await waitFor(() => share.delivered('Press_1', 'cycle').length === 10);
    share.write('press_1.csv', HEADER + rows(100, 103));
    const delivered = await waitFor(() => share.delivered('Press_1', 'cycle').length === 13 && share.delivered('Press_1', 'cycle'));
    expect(delivered.slice(10).map((r) => r.part)).toEqual(['100', '101', '102']);
  });

  it('does not read a rotated (renamed) file twice', async () => {
    const share = plant();
    await start(share.config);
    share.write('press_1.csv', HEADER + rows(0, 20));
    await waitFor(() => share.delivered('Press_1', 'cycle').length === 20);
    share.rename('press_1.csv', 'press_1_archived.csv');
    share.append('press_1_archived.csv', rows(20, 22));
    share.write('press_2.csv', HEADER + rows(50, 52));
    await waitUntilRead(server!, 'plant', [readOf(share, 'press_1_archived.csv'), readOf(share, 'press_2.csv')]);
    const parts = share.delivered('Press_1', 'cycle').map((r) => r.part);
    expect(parts.sort((a, b) => Number(a) - Number(b))).toEqual([...numbers(0, 22), '50', '51']);
  });

  it('reads hundreds of files once; a later poll reads only what was appended', async () => {
    const share = plant();
    const files = 300;
    for (let i = 0; i < files; i += 1) share.write(`press_${String(i).padStart(3, '0')}.csv`, HEADER + rows(i * 2, i * 2 + 2));
    await start(share.config);
    await waitFor(() => share.delivered('Press_1', 'cycle').length === files * 2, 60_000, `${files * 2} rows`);
    const scanLine = new RegExp(`${files} file\\(s\\) listed, (\\d+) byte\\(s\\) read`);
    const before = (await logLines()).filter((l) => scanLine.test(l)).length;
    const appended = rows(1000, 1003);
    share.append('press_007.csv', appended);
    await waitFor(() => share.delivered('Press_1', 'cycle').length === files * 2 + 3);
    const scans = await waitFor(async () => {
      const lines = (await logLines()).filter((l) => scanLine.test(l));
      return lines.length > before && lines.slice(before);
    });
    // The grown file's first bytes (its fingerprint) and the new rows; none of the other files.
    for (const line of scans) expect(Number(scanLine.exec(line)![1])).toBeLessThanOrEqual(4096 + appended.length);
    const parts = share.delivered('Press_1', 'cycle').map((r) => r.part);
    expect(new Set(parts).size).toBe(parts.length);
  });

  it('marks wrong password, missing share, unreachable host, no access and a missing folder, and reads once fixed', async () => {
    const share = plant({ folder: 'later' });
    const base = share.config.data_receiver[0]!;
    const receiver = (name: string, asset: string, connection: Record<string, unknown>) => ({
      ...structuredClone(base),
      data_receiver_name: name,
      streams: [{ asset, stream_type: 'cycle', file_filter: ['*.csv'] }],
      connections: [{ ...base.connections[0], ...connection }],
    });
    const config = {
      ...share.config,
      data_receiver: [
        receiver('wrong_password', 'A', { password: 'not-the-password' }),
        receiver('missing_share', 'B', { shared_folder: 'no_such_share/x' }),
        receiver('unreachable', 'C', { port: 4459 }),
        receiver('no_access', 'D', { ...SAMBA.readOnlyUser, shared_folder: 'private' }),
        receiver('missing_folder', 'E', {}),
      ],
    };
    await start(config);
    const expected: [string, string, RegExp][] = [
      ['A', 'auth_failed', /refused the login of "smbtest": wrong password, or no such user \(STATUS_LOGON_FAILURE\)\. Check username, password and domain/],
      ['B', 'share_not_found', /no share named "no_such_share"/],
      ['C', 'host_unreachable', /127\.0\.0\.1:4459 cannot be reached.*ECONNREFUSED/],
      ['D', 'access_denied', /"smbtest_ro" may not open \\\\127\.0\.0\.1\\private \(access denied\)/],
      ['E', 'source_unavailable', /The folder .*\\later does not exist/],
    ];
    for (const [asset, category, message] of expected) {
      const marker = await waitForMarker(asset, category);
      expect(marker.level).toBe('error');
      expect(marker.message).toMatch(message);
      expect(marker.message).not.toMatch(/not-the-password|tributary-ro-pass/);
    }
    // Said by code (issue 57): the retry and the refused login inside it, each with its code and
    // params, so that the console writes the whole marker in its language (scripts/agent-messages.test.ts).
    const login = (await markersOf('A', 'auth_failed'))!;
    expect(login.code).toBe('smb.retry');
    expect(login.params).toMatchObject({ problem: { code: 'smb.login_wrong_password', params: { user: 'smbtest', code: 'STATUS_LOGON_FAILURE' } } });
    share.mkdir('');
    share.write('press_1.csv', HEADER + rows(0, 2));
    await waitFor(() => share.delivered('E', 'cycle').length === 2, 30_000, 'the folder to be read once it exists');
    await waitFor(async () => (await markersOf('E', 'source_unavailable')) === undefined, 30_000, 'the marker to go');
    expect(share.delivered('A', 'cycle')).toEqual([]);
  });

  it('deletes files on the share after reading with delete_completed', async () => {
    const share = plant({ deleteCompleted: true });
    await start(share.config);
    share.mkdir('sub');
    share.write('press_1.csv', HEADER + rows(0, 3));
    share.write('sub/press_2.csv', HEADER + rows(3, 5));
    await waitFor(() => share.delivered('Press_1', 'cycle').length === 5);
    await waitFor(() => !share.exists('press_1.csv') && !share.exists('sub/press_2.csv'), 15_000, 'the files to be deleted');
  });

  it('warns when the user may not delete, and reads the file only once', async () => {
    const share = plant({ deleteCompleted: true, connection: SAMBA.readOnlyUser });
    await start(share.config);
    share.write('press_1.csv', HEADER + rows(0, 3));
    await waitFor(() => share.delivered('Press_1', 'cycle').length === 3);
    const marker = await waitForMarker('Press_1', 'delete_failed');
    expect(marker.level).toBe('warning');
    expect(marker.message).toMatch(/"smbtest_ro" may not delete it \(access denied\)/);
    // The delete is tried again on a later look (the marker is raised anew): still one reading.
    await waitFor(async () => (await markersOf('Press_1', 'delete_failed'))?.timestamp !== (marker as { timestamp?: string }).timestamp, 20_000, 'a second delete attempt');
    expect(share.exists('press_1.csv')).toBe(true);
    expect(share.delivered('Press_1', 'cycle')).toHaveLength(3);
  });

  it('survives a server restart in the middle of a file: no loss, no duplicates', async () => {
    const share = plant();
    // Several chunks, each committed on its own.
    const pad = `,${'x'.repeat(200)}`;
    const total = Math.ceil((4 * CHUNK_BYTES) / rows(0, 1, pad).length);
    share.write('press_1.csv', 'time,part,force,note\n' + rows(0, total, pad));
    await start(share.config);
    let restarted = false;
    server!.host.runtime.tapRecords(() => {
      if (restarted) return;
      restarted = true;
      restartSamba(); // right after the first chunk is committed, before the next one is read
    });
    const delivered = await waitFor(() => share.delivered('Press_1', 'cycle').length >= total && share.delivered('Press_1', 'cycle'), 60_000, `${total} rows`);
    expect(restarted).toBe(true);
    await waitUntilRead(server!, 'plant', [readOf(share, 'press_1.csv')], 30_000);
    expect(share.delivered('Press_1', 'cycle')).toHaveLength(total);
    expect(delivered.map((r) => r.part)).toEqual(numbers(0, total));
    expect(new Set(delivered.map((r) => r.record_id)).size).toBe(total);
    const lines = await logLines();
    expect(lines.some((l) => /WARNING \| The connection to 127\.0\.0\.1:4445 was lost/.test(l))).toBe(true);
    // The read after reconnecting started at the committed chunk: it read fewer rows than the file has.
    const resumed = lines.map((l) => /press_1\.csv: (\d+) records? read/.exec(l)?.[1]).filter((n) => n !== undefined).map(Number);
    expect(resumed.length).toBeGreaterThan(0);
    expect(Math.max(...resumed)).toBeLessThan(total);
  });
});
