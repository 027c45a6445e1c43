import { AgentsPage } from '../pages/agents-page.js';
import { ConsoleApp } from '../pages/console-app.js';
import { expect, test } from '../fixtures/console-server.js';

// Issue 34 point 3: each agent's row draws its records per minute over the last hour. The demo reads
// about 2 rows a second per file stream, so the current minute's count shows within seconds.
test('an agent row draws the records it read per minute over the last hour, with the numbers in its label', async ({ page, server }) => {
  const app = new ConsoleApp(page);
  await app.open(server, 'agents');
  const agents = new AgentsPage(page);
  const self = agents.table.locator('tbody tr').first();
  const sparkline = self.getByRole('img', { name: /^Records per minute of / });
  await expect(sparkline).toBeVisible();
  // No records yet reads "at most 1" (the scale's floor); the demo's flow lifts it.
  const most = async () => Number(/at most ([\d.,]+) a minute/.exec((await sparkline.getAttribute('aria-label')) ?? '')?.[1]?.replace(/[.,]/g, '') ?? 0);
  await expect.poll(most, { timeout: 40_000 }).toBeGreaterThan(1);
  // The line has one point a minute of the hour and rises off the baseline somewhere.
  const points = ((await sparkline.locator('polyline').getAttribute('points')) ?? '').split(' ').map((p) => Number(p.split(',')[1]));
  expect(points.length).toBeGreaterThanOrEqual(60);
  expect(Math.min(...points)).toBeLessThan(Math.max(...points));
});
