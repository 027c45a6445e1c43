/**
 * Fault suite: log files that cannot be written or rotated never take the agent or a request down.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../testing/file-plant.js';
import { type TestServer, startTestServer, tempDirectory } from '../testing/test-host.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('unwritable logs', () => {
  it('starts and answers while the log folder cannot be created, and writes what waited once it can', async () => {
    const dataDirectory = tempDirectory();
    // Something else holds the name of the log folder: no log can be opened.
    fs.writeFileSync(path.join(dataDirectory, 'logs'), 'in the way');
    server = await startTestServer({ dataDirectory, storageRetryMs: 200 });
    const before = performance.now();
    const status = await server.call('GET', '/v1/status');
    expect(performance.now() - before).toBeLessThan(1000);
    expect(status.status).toBe(200);
    const areas = status.json.response.agent.problems.map((p: { area: string }) => p.area);
    expect(areas).toEqual(expect.arrayContaining(['logs:agent_core.log', 'logs:agent_web.log']));
    expect((await server.call('POST', '/v1/config', { data_receiver: [], transforms: [], data_transmit: [] })).status).toBe(200);

    fs.rmSync(path.join(dataDirectory, 'logs'));
    await waitFor(async () => (await server!.call('GET', '/v1/status')).json.response.agent.problems.length === 0, 10_000, 'the log problems to clear');
    const core = fs.readFileSync(path.join(dataDirectory, 'logs', 'agent_core.log'), 'utf8');
    // Lines written while the folder was blocked arrive late, in order, and the agent says so.
    expect(core).toMatch(/Tributary agent starting[\s\S]*Configuration saved/);
    expect(core).toMatch(/agent_core\.log could not be written for a while: \d+ line\(s\) were kept in memory and written late, 0 line\(s\) were lost/);
  });

  it('answers every request while the web log cannot be rotated, and says so in status', async () => {
    const dataDirectory = tempDirectory();
    const web = path.join(dataDirectory, 'logs', 'agent_web.log');
    fs.mkdirSync(path.join(dataDirectory, 'logs'));
    // Non-empty folders where the rotated copies should go: every rename fails.
    for (const generation of ['.1', '.2', '.3']) {
      fs.mkdirSync(`${web}${generation}`);
      fs.writeFileSync(path.join(`${web}${generation}`, 'keep'), 'x');
    }
    server = await startTestServer({ dataDirectory, logMaxBytes: 2000, logKeep: 3 });
    for (let i = 0; i < 60; i += 1) {
      const before = performance.now();
      expect((await server.call('GET', '/v1/status')).status).toBe(200);
      expect(performance.now() - before).toBeLessThan(1000);
    }
    const problems = (await server.call('GET', '/v1/status')).json.response.agent.problems;
    expect(problems).toContainEqual(expect.objectContaining({ area: 'logs:agent_web.log', category: 'write_failed' }));
    // Nothing was lost: the file grew past its limit instead.
    expect(fs.statSync(web).size).toBeGreaterThan(2000);
    expect(fs.readFileSync(web, 'utf8').match(/GET \/v1\/status 200/g)?.length).toBeGreaterThanOrEqual(59);
  });
});
