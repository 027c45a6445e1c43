/** What the preview tests share (inspect/config-preview.test.ts and its .integration twin). */
import { serverPerTest } from './server-per-test.js';

/** Header and first `count` rows (one a second from 06:00:00, count ≤ 60) of a press's cycle file. */
export const CYCLE_HEADER = 'time,part,cyc_t\n';
export const cycleRows = (count: number) => Array.from({ length: count }, (_, i) => `2026-01-05 06:00:${String(i).padStart(2, '0')},P${i},${29 + i / 10}\n`).join('');

/** POST /v1/config/preview on the test's server, started on the first request, closed after each test. */
export function previewFixture() {
  const servers = serverPerTest();
  return {
    server: () => servers.get(),
    preview: async (body: unknown) => (await servers.get()).call('POST', '/v1/config/preview', body),
  };
}
