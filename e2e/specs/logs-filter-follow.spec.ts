import { ConsoleApp } from '../pages/console-app.js';
import { LogsPage } from '../pages/logs-page.js';
import { expect, test } from '../fixtures/console-server.js';
import { dropFileWithBadLine } from '../servers/file-drops.js';

test('an operator reads the core log, filters it by level and follows the web log', async ({ page, server }) => {
  dropFileWithBadLine(server);
  const app = new ConsoleApp(page);
  await app.open(server);
  await app.goTo('Logs');

  const logs = new LogsPage(page);
  await expect(logs.rowsOfLevel('INFO').first()).toBeVisible();
  await expect(logs.rowsOfLevel('WARNING').first()).toBeVisible({ timeout: 20_000 });

  await logs.level.selectOption('WARNING');
  await expect(logs.rowsOfLevel('INFO')).toHaveCount(0);
  await expect(logs.rowsOfLevel('WARNING').first()).toBeVisible({ timeout: 20_000 });

  await logs.level.selectOption('');
  await logs.search.fill('Started');
  await expect(logs.rows.first()).toContainText('Started');

  // The web log records the console's own requests, so following it shows new lines arriving.
  await logs.search.fill('');
  await logs.logFile('Web').click();
  await expect(logs.rows.first()).toContainText('GET /');
  const before = await logs.rows.count();
  await expect(async () => expect(await logs.rows.count()).toBeGreaterThan(before)).toPass({ timeout: 15_000 });
});
