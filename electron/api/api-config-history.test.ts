import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { specExampleConfiguration } from '../../shared/testing/config-fixtures.js';
import { type TestServer, startTestServer } from '../testing/test-host.js';

const SPEC_TIMESTAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}$/;
let server: TestServer;

/** Revision 1 by the bootstrap token, revision 2 (poll interval 30, a new API key) by a named admin token. */
async function saveTwice(): Promise<void> {
  expect((await server.call('POST', '/v1/config', specExampleConfiguration())).status).toBe(200);
  const created = await server.call('POST', '/v1/tokens', { name: 'night-shift-lead', role: 'admin' });
  const second = specExampleConfiguration();
  second.data_receiver[0]!.poll_interval = 30;
  second.data_transmit[0]!.API_key = 'rotated-key-456';
  const saved = await server.call('POST', '/v1/config', second, { authorization: `Bearer ${created.json.response.token}` });
  expect(saved.status, JSON.stringify(saved.json)).toBe(200);
}

beforeEach(async () => {
  server = await startTestServer();
});
afterEach(async () => {
  await server.close();
});

describe('GET /v1/config/history', () => {
  it('answers an empty list before anything was saved', async () => {
    const { status, json } = await server.call('GET', '/v1/config/history');
    expect(status).toBe(200);
    expect(json.response).toEqual([]);
  });

  it('lists the kept versions newest first with time, size and the token name that saved each', async () => {
    await saveTwice();
    const { status, json } = await server.call('GET', '/v1/config/history');
    expect(status).toBe(200);
    const versions = json.response as { revision: number; saved_at: string; size: number; saved_by: string; current: boolean }[];
    expect(versions.map((v) => [v.revision, v.saved_by, v.current])).toEqual([
      [2, 'night-shift-lead', true],
      [1, 'bootstrap', false],
    ]);
    const files = fs.readdirSync(path.join(server.dataDirectory, 'conf.d', 'history')).filter((f) => f.endsWith('.json')).sort();
    const sizes = files.map((f) => fs.statSync(path.join(server.dataDirectory, 'conf.d', 'history', f)).size);
    expect(versions.map((v) => v.size)).toEqual(sizes.reverse());
    for (const version of versions) expect(version.saved_at).toMatch(SPEC_TIMESTAMP);
    expect(versions[0]!.saved_at >= versions[1]!.saved_at).toBe(true);
    expect(JSON.stringify(json)).not.toContain('secret-api-key-123');
  });

  it('says in one line what each version changed against the one before (issue 56)', async () => {
    await saveTwice();
    const versions = (await server.call('GET', '/v1/config/history')).json.response as { revision: number; summary: string | null }[];
    expect(versions.map((v) => [v.revision, v.summary])).toEqual([
      [2, 'Changes receiver plant_csv (poll_interval); changes transmit cloud (API_key).'],
      [1, 'Adds receiver plant_csv; adds transform to_utc; adds transmit cloud.'],
    ]);
    // Each phrase with its code, for a console that writes it in its own language (issue 57).
    const changes = (versions[0] as unknown as { changes: { code: string; params: Record<string, unknown> }[] }).changes;
    expect(changes.map((c) => [c.code, c.params])).toEqual([
      ['change.changes_receiver', { name: 'plant_csv', fields: 'poll_interval' }],
      ['change.changes_transmit', { name: 'cloud', fields: 'API_key' }],
    ]);
  });
});

describe('GET /v1/config/history/{revision}', () => {
  it('answers an older version with its secrets masked as GET /v1/config masks them, and who saved it', async () => {
    await saveTwice();
    const { status, json } = await server.call('GET', '/v1/config/history/1');
    expect(status).toBe(200);
    const expected = specExampleConfiguration();
    expected.data_transmit[0]!.API_key = '********';
    expect(json.response).toEqual(expected);
    expect(json.meta).toMatchObject({ revision: 1, saved_by: 'bootstrap' });
    expect(json.meta.last_modified).toMatch(SPEC_TIMESTAMP);
    expect(JSON.stringify(json)).not.toMatch(/secret-api-key-123|rotated-key-456/);
    const current = await server.call('GET', '/v1/config/history/2');
    expect(current.json.response).toEqual((await server.call('GET', '/v1/config')).json.response);
    expect(current.json.meta.saved_by).toBe('night-shift-lead');
  });

  it('answers 404 in the envelope for a revision not kept, and for one that is not a number', async () => {
    await saveTwice();
    for (const revision of ['99', '0', 'latest', '1.5']) {
      const { status, json } = await server.call('GET', `/v1/config/history/${revision}`);
      expect(status, revision).toBe(404);
      expect(json.success).toBe(false);
      expect(JSON.stringify(json)).toContain(revision);
    }
  });

  it('restores an older version through the normal save: masked secrets keep the saved one', async () => {
    const first = specExampleConfiguration();
    expect((await server.call('POST', '/v1/config', first)).status).toBe(200);
    const second = specExampleConfiguration();
    second.data_receiver[0]!.poll_interval = 30;
    expect((await server.call('POST', '/v1/config', second)).status).toBe(200);

    const older = await server.call('GET', '/v1/config/history/1');
    const restored = await server.call('POST', '/v1/config', older.json.response, { 'if-match': '"2"' });
    expect(restored.status, JSON.stringify(restored.json)).toBe(200);
    expect(restored.json.meta.revision).toBe(3);
    const onDisk = JSON.parse(fs.readFileSync(path.join(server.dataDirectory, 'conf.d', 'tributary.json'), 'utf8'));
    expect(onDisk).toEqual(first);
    const history = await server.call('GET', '/v1/config/history');
    expect(history.json.response.map((v: { revision: number; current: boolean }) => [v.revision, v.current])).toEqual([
      [3, true],
      [2, false],
      [1, false],
    ]);
  });

  it('asks for the secret again when the restored version sent it to another place than the saved one', async () => {
    expect((await server.call('POST', '/v1/config', specExampleConfiguration())).status).toBe(200);
    const moved = specExampleConfiguration();
    moved.data_transmit[0]!.base_url = 'https://127.0.0.1:2';
    moved.data_transmit[0]!.API_key = 'other-key-789';
    expect((await server.call('POST', '/v1/config', moved)).status).toBe(200);

    const older = await server.call('GET', '/v1/config/history/1');
    const restored = await server.call('POST', '/v1/config', older.json.response);
    expect(restored.status).toBe(422);
    expect(JSON.stringify(restored.json.response.violations)).toContain('API_key');
    expect((await server.call('GET', '/v1/config')).json.meta.revision).toBe(2);
  });
});
