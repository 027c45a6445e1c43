/**
 * Whatever a file server answers to a folder listing, the listing ends: a server that lists forever
 * or answers with empty rounds forever is cut off at the bound with an error that says so, and an
 * answer larger than any may be ends the connection. Against a fake SMB 2.0.2 server on loopback
 * (electron/testing/fake-smb-server.ts), signed as against Samba.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type FakeSmbServer, type ListingAnswer, startFakeSmbServer } from '../../../testing/fake-smb-server.js';
import { SmbSession } from './smb-client.js';

const USER = { username: 'operator', password: 'line-3-pass' };
let server: FakeSmbServer | undefined;
let session: SmbSession | undefined;
afterEach(async () => {
  session?.close();
  await server?.close();
  server = session = undefined;
});

async function listWith(listing: (round: number) => ListingAnswer) {
  server = await startFakeSmbServer({ ...USER, listing });
  session = new SmbSession({ host: '127.0.0.1', port: server.port, domain: 'PLANT', ...USER, share: 'data' }, 20_000);
  await session.connect();
  return session.list('line3');
}

const names = (count: number, prefix = 'f') => Array.from({ length: count }, (_, i) => `${prefix}${i}.csv`);

describe('listing a folder on a hostile server', () => {
  it('reads a listing of three rounds to its end (the fake server answers as a real one)', async () => {
    const entries = await listWith((round) => (round < 3 ? { names: names(500, `r${round}-`) } : 'end'));
    expect(session!.security).toEqual({ dialect: '2.0.2', signing: 'HMAC-SHA256', encryption: undefined });
    expect(entries).toHaveLength(1500);
    expect(entries[0]).toMatchObject({ name: 'r0-0.csv', isDirectory: false, size: 10 });
    expect(entries.at(-1)!.name).toBe('r2-499.csv');
  });

  // The bound of 1,000,000 entries: smb-hostile-server.integration.test.ts (seconds of work).
  it('stops a server that answers with empty rounds forever after 16 of them', async () => {
    const error = await listWith(() => ({ names: [] })).then(() => undefined, (e: Error) => e);
    expect(error).toMatchObject({ code: 'SMB_ENDLESS_LISTING', message: 'the server did not end the listing of line3 (16 empty answers in a row)' });
    expect(server!.rounds).toBe(16);
  });

  it('counts empty rounds in a row only: entries between them keep a slow listing going', async () => {
    const entries = await listWith((round) => (round >= 40 ? 'end' : round % 10 === 9 ? { names: names(1, `r${round}-`) } : { names: [] }));
    expect(entries.map((e) => e.name)).toEqual(['r9-0.csv', 'r19-0.csv', 'r29-0.csv', 'r39-0.csv']);
  });

  it('takes a single answer as large as a frame may be (131,000 entries of 64 bytes)', async () => {
    // More entries than one function call can take as arguments: push(...entries) threw here.
    const entries = await listWith((round) => (round === 0 ? { names: Array.from({ length: 131_000 }, () => '') } : 'end'));
    expect(entries).toHaveLength(131_000);
  });

  it('ends the connection on an answer larger than any may be, without waiting for its bytes', async () => {
    const error = await listWith(() => ({ frameBytes: 64 * 1024 * 1024 })).then(() => undefined, (e: Error) => e);
    expect(error).toMatchObject({ code: 'SMB_PROTOCOL' });
    expect(error!.message).toMatch(/^the server sent a frame of 67108864 bytes \(at most \d+ expected\)$/);
    await expect(session!.list('line3')).rejects.toMatchObject({ code: 'SMB_PROTOCOL' });
  });
});
