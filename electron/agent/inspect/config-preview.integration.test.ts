/** POST /v1/config/preview of an smb receiver: the first rows of a file on the test Samba share. */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, startTestServer } from '../../testing/test-host.js';
import { requireSamba, sambaPlant } from '../../testing/samba-test-share.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const HEADER = 'time,part,cyc_t\n';
const rows = (count: number) => Array.from({ length: count }, (_, i) => `2026-01-05 06:00:${String(i).padStart(2, '0')},P${i},${29 + i / 10}\n`).join('');

async function preview(body: unknown) {
  server ??= await startTestServer();
  return server.call('POST', '/v1/config/preview', body);
}

describe('preview of an smb receiver (Samba)', () => {
  let sambaMissing: Error | undefined;
  beforeAll(async () => {
    sambaMissing = await requireSamba().then(() => undefined, (error: Error) => error);
  });

  it('reads the first rows of a file on the share', async () => {
    if (sambaMissing) throw sambaMissing;
    const share = sambaPlant();
    try {
      share.write('press_1.csv', HEADER + rows(12));
      const { json } = await preview({ configuration: share.config, rows: 3 });
      const press = json.response.streams[0];
      expect(json.response.protocol).toBe('smb');
      expect(press.source).toMatch(/^\\\\127\.0\.0\.1\\data\\test-[^\\]+\\press_1\.csv$/);
      expect(press.records.map((r: { fieldvalues: { part: string } }) => r.fieldvalues.part)).toEqual(['P0', 'P1', 'P2']);
    } finally {
      share.remove();
    }
  });
});
