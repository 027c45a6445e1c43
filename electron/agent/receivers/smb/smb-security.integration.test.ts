/**
 * The smb receiver on servers configured as current Windows and hardened NAS boxes ship
 * (scripts/ci/start-samba.sh): the plain server (signing and encryption offered), a strict one
 * (`server min protocol = SMB3_11`, `server signing = mandatory`) and a share with `smb encrypt =
 * required`. Each reads nested folders and a growing file, restreams and deletes; the refusals
 * (wrong password, signing off, old dialects only, no encryption) fail with words that say why.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PRESS_HEADER, pressRows, waitFor } from '../../../testing/file-plant.js';
import { SAMBA, SAMBA_SHARES, type SambaShare, requireSamba, sambaPlant } from '../../../testing/samba-test-share.js';
import { type TestServer, startTestServer, tempDirectory } from '../../../testing/test-host.js';
import { DIALECT } from './protocol/smb-crypto.js';
import { SmbSession, type SmbTarget } from './smb-client.js';
import { describeProblem } from './smb-problems.js';

let server: TestServer | undefined;
const plants: ReturnType<typeof sambaPlant>[] = [];
let sambaMissing: Error | undefined;
beforeAll(async () => {
  sambaMissing = await Promise.all([requireSamba('plain'), requireSamba('strict')]).then(() => undefined, (error: Error) => error);
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  for (const plant of plants.splice(0)) plant.remove();
});

function plant(options: Parameters<typeof sambaPlant>[0]) {
  if (sambaMissing) throw sambaMissing;
  const created = sambaPlant(options);
  plants.push(created);
  return created;
}

async function start(config: unknown) {
  server = await startTestServer({ dataDirectory: tempDirectory() });
  const saved = await server.call('POST', '/v1/config', config);
  expect(saved.json.success, JSON.stringify(saved.json)).toBe(true);
  return server;
}

const logLines = async (): Promise<string[]> => (await server!.call('GET', '/v1/log/stream?lines=2000')).json.response;
const parts = (share: ReturnType<typeof sambaPlant>) => share.delivered('Press_1', 'cycle').map((r) => Number(r.part)).sort((a, b) => a - b);
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

/** What the receiver must log about each share's session: the protection actually in use. */
const SECURITY: Record<SambaShare, RegExp> = {
  plain: /SMB 3\.1\.1, signed \(AES-128-GMAC\)/,
  strict: /SMB 3\.1\.1, signed \(AES-128-GMAC\)/,
  sealed: /SMB 3\.1\.1, encrypted \(AES-128-GCM\)/,
};

describe.each(Object.keys(SAMBA_SHARES) as SambaShare[])('smb receiver on the %s share', (name) => {
  it('reads nested folders and a growing file, and restreams with the same record ids', { timeout: 90_000 }, async () => {
    const share = plant({ share: name });
    share.mkdir('line1/old');
    share.write('line1/old/press_1.csv', PRESS_HEADER + pressRows(0, 5));
    share.write('press_2.csv', PRESS_HEADER + pressRows(100, 103));
    await start(share.config);
    await waitFor(() => parts(share).length === 8, 30_000, '8 rows');
    share.append('press_2.csv', pressRows(103, 106));
    await waitFor(() => parts(share).length === 11, 30_000, 'the appended rows');
    expect(parts(share)).toEqual([...range(0, 5), ...range(100, 106)]);
    const lines = await logLines();
    expect(lines.find((l) => l.includes(share.identity('').replace(/\\$/, '')) && /SMB \d/.test(l))).toMatch(SECURITY[name]);

    const idsOf = (rows: Record<string, string>[]) => rows.filter((r) => Number(r.part) < 5).map((r) => r.record_id!).sort();
    const first = idsOf(share.delivered('Press_1', 'cycle'));
    expect((await server!.call('POST', '/v1/restream', { plant: [{ asset: 'Press_1', stream_type: 'cycle' }] })).json.success).toBe(true);
    await waitFor(() => parts(share).length === 22, 30_000, 'the restreamed rows');
    expect(parts(share)).toEqual([...range(0, 5), ...range(0, 5), ...range(100, 106), ...range(100, 106)].sort((a, b) => a - b));
    // The nested file's rows come again under the same record ids (the grown file's are for
    // file-source to decide: its identity was taken while it was shorter).
    expect(idsOf(share.delivered('Press_1', 'cycle').slice(11))).toEqual(first);
  });

  it('deletes read files in nested folders with delete_completed', { timeout: 60_000 }, async () => {
    const share = plant({ share: name, deleteCompleted: true });
    share.mkdir('a/b');
    share.write('press_1.csv', PRESS_HEADER + pressRows(0, 3));
    share.write('a/b/press_2.csv', PRESS_HEADER + pressRows(3, 5));
    await start(share.config);
    await waitFor(() => parts(share).length === 5, 30_000, '5 rows');
    await waitFor(() => !share.exists('press_1.csv') && !share.exists('a/b/press_2.csv'), 30_000, 'the files to be deleted');
    expect(parts(share)).toEqual(range(0, 5));
  });
});

describe('refusals, in the words of the marker', () => {
  const label = { server: '127.0.0.1:4446', unc: '\\\\127.0.0.1\\data', share: 'data', user: 'smbtest' };
  async function refusal(share: SambaShare, change: Partial<SmbTarget>) {
    if (sambaMissing) throw sambaMissing;
    const { port, share: shareName } = SAMBA_SHARES[share];
    const session = new SmbSession({ host: SAMBA.host, port, domain: '', ...SAMBA.user, share: shareName, ...change }, 10_000);
    const error = await session.connect().then(() => undefined, (e: unknown) => e);
    session.close();
    expect(error, 'the session should have been refused').toBeDefined();
    return describeProblem(error, 'connect', { ...label, server: `127.0.0.1:${port}`, share: shareName }, 4);
  }

  it('a signing-required server reached with signing turned off', async () => {
    const problem = await refusal('strict', { limits: { signing: false } });
    expect(problem.category).toBe('signing_required');
    expect(problem.message).toMatch(/^The file server 127\.0\.0\.1:4446 requires SMB signing and refused this session's unsigned requests/);
  });

  it('a wrong password on the strict server', async () => {
    const problem = await refusal('strict', { password: 'not-the-password', domain: 'TRIBUTARY' });
    expect(problem.category).toBe('auth_failed');
    expect(problem.message).toMatch(/refused the login of "smbtest": wrong password, or no such user \(STATUS_LOGON_FAILURE\)/);
  });

  it('an SMB 3.1.1-only server offered SMB 2 and 3.0 only', async () => {
    const problem = await refusal('strict', { limits: { dialects: [DIALECT.SMB202, DIALECT.SMB210, DIALECT.SMB300, DIALECT.SMB302] } });
    expect(problem.category).toBe('dialect_refused');
    expect(problem.message).toMatch(/speaks no SMB version Tributary offers: .*2\.0\.2, 2\.1, 3\.0, 3\.0\.2; STATUS_NOT_SUPPORTED/);
  });

  it('an encrypted share reached by a session that cannot encrypt', async () => {
    const problem = await refusal('sealed', { limits: { encryption: false } });
    expect(problem.category).toBe('encryption_required');
    expect(problem.message).toMatch(/The share "sealed" on 127\.0\.0\.1:4445 requires SMB encryption/);
    // Over SMB 2.1 (no encryption at all) Samba refuses the share itself.
    const old = await refusal('sealed', { limits: { dialects: [DIALECT.SMB210] } });
    expect(old.category).toBe('access_denied');
  });

  it('every dialect from 2.0.2 to 3.0.2 still reads the plain share, signed', async () => {
    if (sambaMissing) throw sambaMissing;
    const share = plant({ share: 'plain' });
    share.write('press_1.csv', PRESS_HEADER + pressRows(0, 50));
    const folder = share.identity('').split('\\').filter(Boolean).slice(2).join('\\');
    for (const [dialect, signing] of [[DIALECT.SMB202, 'HMAC-SHA256'], [DIALECT.SMB210, 'HMAC-SHA256'], [DIALECT.SMB300, 'AES-128-CMAC'], [DIALECT.SMB302, 'AES-128-CMAC']] as const) {
      const session = new SmbSession({ host: SAMBA.host, port: 4445, domain: '', ...SAMBA.user, share: 'data', limits: { dialects: [dialect] } }, 10_000);
      try {
        await session.connect();
        expect(session.security?.signing).toBe(signing);
        const bytes = await session.read(`${folder}\\press_1.csv`, 0, 1 << 20);
        expect(bytes.toString()).toBe(PRESS_HEADER + pressRows(0, 50));
      } finally {
        session.close();
      }
    }
  });
});
