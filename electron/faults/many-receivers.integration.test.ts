/**
 * Fault suite: thousands of receivers keep save, stop and status answering, with a fixed number of
 * threads. Integration test: runs the real server process.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../testing/file-plant.js';
import { type ServeProcess, serveProcess } from '../testing/serve-process.js';
import { tempDirectory } from '../testing/test-host.js';

const RECEIVERS = 2000;
let agent: ServeProcess | undefined;
afterEach(async () => {
  await agent?.crash();
  agent = undefined;
});

const threadsOf = (pid: number) => fs.readdirSync(`/proc/${pid}/task`).length;

describe('thousands of receivers', () => {
  it(`runs ${RECEIVERS} file receivers with a fixed set of threads; status answers within a second throughout, and no row is lost`, async () => {
    const drop = tempDirectory('tributary-drops-');
    const dataDirectory = tempDirectory();
    for (let i = 0; i < RECEIVERS; i += 1) fs.mkdirSync(path.join(drop, `m${i}`));
    const configuration = {
      data_receiver: Array.from({ length: RECEIVERS }, (_, i) => ({
        data_receiver_name: `r${i}`,
        protocol: 'localfile',
        poll_interval: 5,
        connections: [{ root_path: path.join(drop, `m${i}`) }],
        streams: [{ asset: `Machine_${i}`, stream_type: 'cycle', file_filter: ['*.csv'] }],
        parsers: [{ parser_name: 'csv', parser_type: 'spreadsheet' }],
      })),
      transforms: [],
      data_transmit: [{ transmit_name: 'archive', transmit_type: 'csv', poll_interval: 1 }],
    };
    agent = await serveProcess(['--data-dir', dataDirectory, '--port', '0']);
    const started = agent;

    // Status is asked every 100 ms from the first save to the end; the slowest answer counts.
    let slowest = 0;
    let polling = true;
    const poller = (async () => {
      while (polling) {
        const before = performance.now();
        expect((await started.call('GET', '/v1/status')).status).toBe(200);
        slowest = Math.max(slowest, performance.now() - before);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    try {
      expect((await agent.call('POST', '/v1/config', configuration)).status).toBe(200);
      const services = (await agent.call('GET', '/v1/status')).json.response.agent.services;
      expect(Object.keys(services)).toHaveLength(RECEIVERS + 1);
      expect(Object.values(services).every((s) => (s as { status: string }).status === 'running')).toBe(true);
      if (process.platform === 'linux') expect(threadsOf(agent.child.pid!)).toBeLessThan(30);

      for (const i of [0, RECEIVERS - 1]) fs.writeFileSync(path.join(drop, `m${i}`, 'cycle.csv'), 'part\n1\n2\n3\n');
      const outbox = path.join(dataDirectory, 'outbox');
      const rows = (i: number) => {
        const file = path.join(outbox, `Machine_${i}__cycle.csv`);
        return fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim().split('\n').length - 1 : 0;
      };
      await waitFor(() => rows(0) === 3 && rows(RECEIVERS - 1) === 3, 30_000, 'the rows of the first and the last receiver');

      expect((await agent.call('POST', '/v1/agent/stop')).json.response).toBe('stopped');
      expect((await agent.call('POST', '/v1/agent/start')).json.response).toBe('running');
      // Saving the same configuration again restarts every receiver: still answerable.
      expect((await agent.call('POST', '/v1/config', configuration)).status).toBe(200);
    } finally {
      polling = false;
      await poller;
    }
    expect(slowest).toBeLessThan(1000);
    expect(agent.child.exitCode).toBeNull();
  }, 180_000);
});
