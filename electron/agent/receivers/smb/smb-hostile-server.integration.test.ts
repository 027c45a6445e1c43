/**
 * A file server that never ends a folder listing (entries forever, or empty answers forever) cannot
 * hold the smb receiver: the listing stops at its bound, a subfolder listed without end is skipped
 * with a marker naming it while the rest is read, and a root folder listed without end is a marker
 * that says so. Against the fake SMB 2.0.2 server of electron/testing/fake-smb-server.ts: no Samba
 * can be made to misbehave like this.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type FakeSmbServer, type ListingAnswer, startFakeSmbServer } from '../../../testing/fake-smb-server.js';
import { PRESS_HEADER, filePlant, pressRows, waitFor } from '../../../testing/file-plant.js';
import { type TestServer, startTestServer, tempDirectory } from '../../../testing/test-host.js';
import { SmbSession } from './smb-client.js';

const USER = { username: 'operator', password: 'line-3-pass' };
let fake: FakeSmbServer | undefined;
let agent: TestServer | undefined;
afterEach(async () => {
  await agent?.close();
  await fake?.close();
  agent = fake = undefined;
});

describe('an SMB server that lists without end', { timeout: 90_000 }, () => {
  it('is cut off at 1,000,000 entries of one folder, and the session goes on', async () => {
    const big = { names: Array.from({ length: 100_000 }, () => 'x.csv') }; // ~8 MB per answer
    fake = await startFakeSmbServer({ ...USER, listing: () => big });
    const session = new SmbSession({ host: '127.0.0.1', port: fake.port, domain: '', ...USER, share: 'data' }, 30_000);
    try {
      await session.connect();
      const error = await session.list('line3').then(() => undefined, (e: Error) => e);
      expect(error).toMatchObject({ code: 'SMB_ENDLESS_LISTING', message: 'the server did not end the listing of line3 (stopped after 1100000 entries)' });
      expect(fake.rounds).toBe(11);
      // The listing was given up, not the connection: the next call is answered.
      await expect(session.stat('line3')).resolves.toMatchObject({ size: 0 });
    } finally {
      session.close();
    }
  });

  async function startAgent(listing: (round: number, folder: string) => ListingAnswer) {
    fake = await startFakeSmbServer({ ...USER, listing, files: { 'line3\\press_1.csv': PRESS_HEADER + pressRows(0, 3) } });
    const plant = filePlant();
    Object.assign(plant.config.data_receiver[0]!, {
      protocol: 'smb',
      connections: [{ host: '127.0.0.1', port: fake.port, ...USER, shared_folder: 'data/line3' }],
    });
    agent = await startTestServer({ dataDirectory: tempDirectory() });
    const saved = await agent.call('POST', '/v1/config', plant.config);
    expect(saved.json.success, JSON.stringify(saved.json)).toBe(true);
    return plant;
  }

  async function markerOf(category: string) {
    const streams: { asset: string; markers: { category: string; message: string; level: string }[] }[] = (await agent!.call('GET', '/v1/streams')).json.response;
    return streams.find((s) => s.asset === 'Press_1')?.markers.find((m) => m.category === category);
  }

  it('skips a subfolder listed without end, naming it, and reads the rest', async () => {
    const plant = await startAgent((round, folder) => (folder === 'line3\\archive' ? { names: [] } : round === 0 ? { names: ['press_1.csv', 'archive\\'] } : 'end'));
    await waitFor(() => plant.delivered('Press_1', 'cycle').length === 3, 30_000, 'the rows of press_1.csv');
    const marker = await waitFor(() => markerOf('folder_skipped'), 30_000, 'the folder_skipped marker');
    expect(marker.level).toBe('warning');
    expect(marker.message).toMatch(/The folder\(s\) \\\\127\.0\.0\.1\\data\\line3\\archive\\ cannot be read \(.*listed by the server without end\)/);
    expect(await markerOf('source_unavailable')).toBeUndefined();
  });

  it('reads nothing from a root folder listed without end, and says so', async () => {
    const plant = await startAgent(() => ({ names: [] }));
    const marker = await waitFor(() => markerOf('source_unavailable'), 30_000, 'the source_unavailable marker');
    expect(marker.level).toBe('error');
    expect(marker.message).toMatch(
      /^The file server 127\.0\.0\.1:\d+ does not end the listing of \\\\127\.0\.0\.1\\data\\line3: the server did not end the listing of line3 \(16 empty answers in a row\)\. .*Tributary tries again in \d+ s\.$/,
    );
    expect(plant.delivered('Press_1', 'cycle')).toEqual([]);
  });
});
