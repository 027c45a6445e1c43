import { afterEach, describe, expect, it } from 'vitest';
import { availabilityKpi } from '../../../shared/testing/kpi-fixtures.js';
import { filePlant, waitFor } from '../../testing/file-plant.js';
import { type TestServer, startTestServer } from '../../testing/test-host.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const CSV = `time,state,duration_s,ok
2026-01-05 06:00:00,running,600,1
2026-01-05 06:10:00,running,600,1
2026-01-05 06:20:00,stopped,1200,0
2026-01-05 06:40:00,running,1200,1
2026-01-05 07:00:00,running,1800,1
2026-01-05 07:30:00,stopped,1800,0
`;

const request = { name: 'availability', machines: ['Press_1'], start: '2026-01-05T06:00:00Z', end: '2026-01-05T09:00:00Z', bin_size: 3600 };

describe('KPI evaluation on records that flowed through a localfile receiver', () => {
  it('computes the hand-computed values per hour, and a restream does not count records twice', async () => {
    const plant = filePlant();
    server = await startTestServer();
    expect((await server.call('POST', '/v1/config', plant.config)).json.success).toBe(true);
    expect((await server.call('PUT', '/v1/kpis/availability', availabilityKpi())).json.success).toBe(true);
    plant.write('press_1.csv', CSV);
    await waitFor(() => plant.delivered('Press_1', 'cycle').length === 6, 15_000, 'the rows to be delivered');

    const evaluate = async () => {
      const reply = await server!.call('POST', '/v1/kpis/evaluate', request);
      expect(reply.json.success, JSON.stringify(reply.json)).toBe(true);
      return reply.json.response.machines[0].bins as { value: number | null; status: string; dependencies: Record<string, number | null>; records: number }[];
    };
    const bins = await waitFor(async () => {
      const current = await evaluate();
      return current.reduce((n, b) => n + b.records, 0) === 6 && current;
    }, 10_000, 'the records to reach the KPI history');
    // 06:00–07:00: running 600 + 600 + 1200 of 3600 s; 07:00–08:00: 1800 of 3600 s; 08:00–09:00: no data.
    expect(bins.map((b) => [b.value === null ? null : Number(b.value.toFixed(4)), b.status, b.dependencies, b.records])).toEqual([
      [66.6667, 'neutral', { up_time: 2400, all_time: 3600 }, 4],
      [50, 'bad', { up_time: 1800, all_time: 3600 }, 2],
      [null, 'neutral', { up_time: null, all_time: null }, 0],
    ]);

    const restream = await server.call('POST', '/v1/restream', { plant: [{ asset: 'Press_1', stream_type: 'cycle' }] });
    expect(restream.json.success).toBe(true);
    await waitFor(() => plant.delivered('Press_1', 'cycle').length === 12, 15_000, 'the restreamed rows');
    expect(await evaluate()).toEqual(bins);
    expect(server.host.runtime.kpis.historySize()).toBe(6);
  });
});
