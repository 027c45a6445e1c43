/**
 * Issue 38 point 1: 15 minutes after an upload outage its warnings could no longer be reached in the
 * console. Here the outage is 20 minutes old and 6,000 routine lines came after it, in rotated files:
 * the level filter, "jump to time" and "load older" each reach it; Status links a problem to its lines.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ConsoleApp } from '../pages/console-app.js';
import { LogsPage } from '../pages/logs-page.js';
import { StatusPage } from '../pages/status-page.js';
import { expect, test } from '../fixtures/console-server.js';

const stamp = (ms: number) => `${new Date(ms).toISOString().replace('T', ' ').replace('Z', '')}000`;
const CAUSE = 'Cannot reach https://cloud.example/v1/rdp2/sslogs (ECONNREFUSED): check the network, DNS and proxy of this PC.';

/** agent_core.log.2: the outage 21 minutes ago (9 warnings, 1 error); .1: 6,000 routine lines after it. */
function writeOldOutage(logs: string): number {
  const outageAt = Date.now() - 21 * 60_000;
  const oldest: string[] = [];
  for (let i = 0; i < 30; i += 1) oldest.push(`${stamp(outageAt - 60_000 + i * 1000)} | main | transmit:cloud | INFO | 1 upload, 3,000 records (80.0 KiB) in the last 60 s`);
  for (let i = 0; i < 9; i += 1)
    oldest.push(`${stamp(outageAt + i * 1000)} | main | transmit:cloud | WARNING | ${CAUSE} Records are kept (${(i + 1) * 3000} waiting) and the upload is retried. ${'Context of the failure. '.repeat(12)}END OF LINE ${i}`);
  oldest.push(`${stamp(outageAt + 9000)} | main | transmit:cloud | ERROR | The outbox cannot be read: disk I/O error`);
  const routine = Array.from({ length: 6000 }, (_, i) => `${stamp(outageAt + 60_000 + i * 190)} | parse-1 | receiver:plant | INFO | line_${i}.csv: 500 records read`);
  fs.writeFileSync(path.join(logs, 'agent_core.log.2'), `${oldest.join('\n')}\n`);
  fs.writeFileSync(path.join(logs, 'agent_core.log.1'), `${routine.join('\n')}\n`);
  return outageAt;
}

test('an outage 20 minutes old is still findable in Logs: by level, by jumping to its time, by loading older lines', async ({ page, server }) => {
  const outageAt = writeOldOutage(path.join(server.dataDirectory, 'logs'));
  const app = new ConsoleApp(page);
  await app.open(server);
  await app.goTo('Logs');
  const logs = new LogsPage(page);

  // The newest 2,000 lines hold no trace of it.
  await expect(logs.rowsWith('line_5999.csv')).toBeVisible();
  await logs.search.fill('Cannot reach');
  await expect(logs.count).toContainText(/^0 of [\d,]+ lines/);

  // Warnings and above, filtered by the agent over its rotated files: the 9 warnings and the error.
  await logs.search.fill('');
  await logs.level.selectOption('WARNING');
  await expect(logs.rowsWith('Cannot reach')).toHaveCount(9);
  await expect(logs.rowsWith('The outbox cannot be read')).toHaveCount(1);
  await expect(logs.rowsOfLevel('INFO')).toHaveCount(0);

  // A long line expands on click: all of it, wrapped.
  const warning = logs.rowsWith('END OF LINE 8');
  await expect(warning).toHaveAttribute('data-expanded', 'false');
  await warning.click();
  await expect(warning).toHaveAttribute('data-expanded', 'true');
  await expect.poll(async () => (await warning.boundingBox())!.height).toBeGreaterThan(40);
  await expect(warning.locator('.log-message')).toBeInViewport();

  // Jump to the outage's minute at every level: the lines up to then, the outage among them.
  await logs.level.selectOption('');
  // Typed as the browser's language writes a local time (its example is the field's placeholder).
  const local = await page.evaluate(
    (ms) => new Intl.DateTimeFormat(navigator.language, { year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' }).format(new Date(ms)),
    outageAt + 9000,
  );
  await logs.jumpToTime.fill(local);
  await logs.go.click();
  await expect(logs.rowsWith('The outbox cannot be read')).toBeVisible();
  await expect(logs.follow).toBeDisabled();
  await expect(logs.rowsWith('line_5999.csv')).toHaveCount(0);

  // Back to the newest lines, then page back with "load older" until the outage is loaded.
  await logs.backToNewest.click();
  await expect(logs.follow).toBeChecked();
  await expect(logs.rowsWith('line_5999.csv')).toBeVisible();
  await logs.search.fill('Cannot reach');
  await expect(async () => {
    if (await logs.loadOlder.isEnabled()) await logs.loadOlder.click();
    await expect(logs.rowsWith('Cannot reach')).toHaveCount(9, { timeout: 2000 });
  }).toPass({ timeout: 30_000 });
  await expect(logs.count).toContainText(/9 of [\d,]+ lines/);
});

test("a service's error on Status links to its log lines", async ({ page, server }) => {
  const missing = path.join(server.dataDirectory, 'no-such-folder');
  const headers = { authorization: `Bearer ${server.token}` };
  const config = (await (await page.request.get(`${server.origin}/v1/config`, { headers })).json()).response;
  config.data_receiver[0].connections[0].root_path = missing;
  expect((await (await page.request.post(`${server.origin}/v1/config`, { headers, data: config })).json()).success).toBe(true);

  const app = new ConsoleApp(page);
  await app.open(server);
  const status = new StatusPage(page);
  const receiver = status.service('receiver:demo_plant_files');
  await expect(receiver).toHaveAttribute('data-health', 'degraded', { timeout: 15_000 });
  await receiver.getByRole('link', { name: 'Log lines' }).click();

  const logs = new LogsPage(page);
  await expect(logs.component).toHaveValue('receiver:demo_plant_files');
  await expect(logs.level).toHaveValue('WARNING');
  await expect(logs.rowsWith(`The folder ${missing} does not exist`).first()).toBeVisible();
  for (const component of await logs.rows.locator('.log-component').allTextContents()) expect(component).toBe('receiver:demo_plant_files');
});
