/**
 * What the tests of the data flow of streams share (api/api-flow.test.ts and
 * api/stream-reading.integration.test.ts): the press file of a file plant and GET /v1/streams stats.
 */
import { type filePlant, startPlantServer } from './file-plant.js';
import { serverPerTest } from './server-per-test.js';
import { type TestServer, tempDirectory } from './test-host.js';

export const FLOW_HEADER = 'time,part,force\n';
export const PRESS = { asset: 'Press_1', stream_type: 'cycle' };
/** Rows `from` ≤ n < `to`, one second apart from 2026-01-05 06:00:00 on. */
export const flowRows = (from: number, to: number) =>
  Array.from({ length: to - from }, (_, k) => {
    const at = new Date(Date.UTC(2026, 0, 5, 6) + (from + k) * 1000).toISOString().slice(0, 19).replace('T', ' ');
    return `${at},${from + k},${((from + k) * 1.5).toFixed(1)}\n`;
  }).join('');

/** The stats of a stream in GET /v1/streams. */
export async function streamStats(server: TestServer, asset: string) {
  const { json } = await server.call('GET', '/v1/streams');
  return (json.response as { asset: string; stats: any }[]).find((s) => s.asset === asset)!.stats;
}

/** The test's server (closed after each test); `startPlant` saves a plant's configuration on it. */
export function streamFlowFixture() {
  const servers = serverPerTest();
  return {
    servers,
    startPlant: (plant: ReturnType<typeof filePlant>, dataDirectory = tempDirectory()) => servers.startWith(() => startPlantServer(plant, dataDirectory)),
  };
}
