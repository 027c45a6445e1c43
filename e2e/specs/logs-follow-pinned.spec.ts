import { ConsoleApp } from '../pages/console-app.js';
import { LogsPage } from '../pages/logs-page.js';
import { expect, test } from '../fixtures/console-server.js';

test('Follow opens the log at the newest line, stays there as lines arrive, and lets the operator scroll up', async ({ page, server }) => {
  // Enough requests that the web log is longer than its box.
  const headers = { authorization: `Bearer ${server.token}` };
  for (let i = 0; i < 80; i += 1) await page.request.get(`${server.origin}/v1/streams`, { headers });

  const app = new ConsoleApp(page);
  await app.open(server);
  await app.goTo('Logs');
  const logs = new LogsPage(page);
  await logs.logFile('Web').click();
  await expect(logs.follow).toBeChecked();
  await expect(logs.rows.first()).toBeVisible();

  const atBottom = async () => {
    const s = await logs.scroll();
    return s.height > s.client && s.top + s.client >= s.height - 44;
  };
  // The box scrolls, not the page, and it opens at the newest line.
  await expect.poll(atBottom).toBe(true);
  const first = await logs.scroll();
  expect(first.pageHeight).toBeLessThanOrEqual(first.windowHeight);

  // New lines arrive (the console's own polls): still at the newest.
  await expect.poll(async () => (await logs.scroll()).height, { timeout: 15_000 }).toBeGreaterThan(first.height);
  await expect.poll(atBottom).toBe(true);

  // The operator scrolls up to read: the view stays where they are while lines keep arriving.
  await logs.scrollUp(600);
  await expect(logs.view).toHaveAttribute('data-pinned', 'false');
  const reading = (await logs.scroll()).top;
  const heightWhileReading = (await logs.scroll()).height;
  await expect.poll(async () => (await logs.scroll()).height, { timeout: 15_000 }).toBeGreaterThan(heightWhileReading);
  expect((await logs.scroll()).top).toBe(reading);

  await logs.jumpToNewest.click();
  await expect(logs.view).toHaveAttribute('data-pinned', 'true');
  await expect.poll(atBottom).toBe(true);
});
