/**
 * Issue 50 point 5: the audit trail cannot be erased by the people it records. A viewer's flood of
 * 403s (1,264 bytes each, audited one by one) rotated the whole trail away in 13 s. Refusals are now
 * audited in aggregate in a file of their own: per minute and per token and route, the first one at
 * once and then a count; an admin's action before the flood stays. The case beside: 401s with
 * long, ever different paths.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_REFUSAL_KINDS_PER_MINUTE } from '../agent/logging/audit-log.js';
import { type TestServer, startTestServer } from '../testing/test-host.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const read = (file: string) => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trimEnd().split('\n') : []);

describe('audit trail against floods of refused requests', () => {
  it("1,000 401s with ever other paths and a viewer's 4,000 403s leave the admin's earlier action in audit.log, and are counted", async () => {
    // A small rotation budget (8 KiB × 2) that the flood would exhaust more than 100 times over.
    server = await startTestServer({ logMaxBytes: 8192, logKeep: 2 });
    const logs = path.join(server.dataDirectory, 'logs');
    const created = await server.call('POST', '/v1/tokens', { name: 'shift-b', role: 'viewer' });
    expect(created.status).toBe(200);
    const viewer = { authorization: `Bearer ${created.json.response.token as string}` };
    const long = 'x'.repeat(1200);
    // Anyone: 1,000 401s on paths that differ each time (the case beside).
    for (let round = 0; round < 20; round += 1)
      await Promise.all(Array.from({ length: 50 }, (_, i) => fetch(`${server!.url}/v1/streams/${round}-${i}-${long}`).then((r) => expect(r.status).toBe(401))));
    // The viewer: 4,000 403s, 1,264 bytes of path and query each as in the attack.
    for (let round = 0; round < 40; round += 1) {
      await Promise.all(
        Array.from({ length: 50 }, async (_, i) => {
          expect((await fetch(`${server!.url}/v1/agent/stop?${long}`, { method: 'POST', headers: viewer })).status).toBe(403);
          // Paths that differ each time: counted by the route, not by the path asked for.
          expect((await fetch(`${server!.url}/v1/tokens/${round}-${i}-${long}`, { method: 'DELETE', headers: viewer })).status).toBe(403);
        }),
      );
      const started = Date.now();
      expect((await server.call('GET', '/v1/status')).status).toBe(200);
      expect(Date.now() - started).toBeLessThan(1000);
    }
    await server.close();
    const audit = path.join(logs, 'audit.log');
    expect(fs.existsSync(`${audit}.1`)).toBe(false);
    expect(read(audit)).toEqual([expect.stringMatching(/\| token=bootstrap \| role=admin \| POST \/v1\/tokens \| 200 ok$/)]);

    // audit-refused.log rotates within its own budget; its newest file has the viewer's counts.
    const refused = read(path.join(logs, 'audit-refused.log'));
    const viewerLines = refused.filter((line) => line.includes('token=shift-b'));
    expect(viewerLines).toEqual([
      expect.stringMatching(/\| token=shift-b \| role=viewer \| POST \/v1\/agent\/stop \| 403 refused: needs operator$/),
      expect.stringMatching(/\| token=shift-b \| role=viewer \| DELETE \/v1\/tokens\/:name \| 403 refused: needs admin$/),
      expect.stringMatching(/\| token=shift-b \| role=viewer \| POST \/v1\/agent\/stop \| 403 refused: needs operator \| 1999 more within the minute$/),
      expect.stringMatching(/\| token=shift-b \| role=viewer \| DELETE \/v1\/tokens\/:name \| 403 refused: needs admin \| 1999 more within the minute$/),
    ]);
    // 401s: the first MAX_REFUSAL_KINDS_PER_MINUTE paths one line each (cut to 120 characters), then one count.
    expect(refused.at(-1)).toMatch(new RegExp(`\\| token=- \\| role=- \\| \\* \\* \\| 401 unauthenticated \\| ${1000 - MAX_REFUSAL_KINDS_PER_MINUTE} more on other paths within the minute$`));
    const all = [0, 1, 2].flatMap((n) => read(path.join(logs, n === 0 ? 'audit-refused.log' : `audit-refused.log.${n}`)));
    for (const line of all) expect(line.length).toBeLessThan(300);
  }, 120_000);
});
