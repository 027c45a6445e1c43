import path from 'node:path';
import { ConfigPage } from '../pages/config-page.js';
import { ConsoleApp } from '../pages/console-app.js';
import { StatusPage } from '../pages/status-page.js';
import { expect, test } from '../fixtures/console-server.js';

test('a receiver reading a folder that does not exist shows degraded with the reason, and validation warns about it', async ({ page, server }) => {
  const missing = path.join(server.dataDirectory, 'no-such-folder');
  // The configuration as someone saved it elsewhere: the demo, reading a folder that is not there.
  const headers = { authorization: `Bearer ${server.token}` };
  const config = (await (await page.request.get(`${server.origin}/v1/config`, { headers })).json()).response;
  config.data_receiver[0].connections[0].root_path = missing;
  const saved = await page.request.post(`${server.origin}/v1/config`, { headers, data: config });
  expect((await saved.json()).success).toBe(true);

  const app = new ConsoleApp(page);
  await app.open(server);
  const status = new StatusPage(page);
  const receiver = status.service('receiver:demo_plant_files');
  await expect(receiver).toHaveAttribute('data-health', 'degraded', { timeout: 15_000 });
  await expect(receiver).toContainText('running · degraded');
  await expect(receiver).toContainText(`The folder ${missing} does not exist`);
  await expect(status.service('transmit:archive')).toHaveAttribute('data-health', 'ok');
  await expect(app.headerAgentState).toContainText('running · 1 service degraded');
  // Sizes in units, counts in words.
  await expect(status.transmits.first()).toContainText(/\d[\d,]* records? \(\d+(\.\d+)? (bytes?|KiB|MiB)\)/);

  await app.goTo('Configuration');
  const editor = new ConfigPage(page);
  const warning = editor.violation(`The folder ${missing} does not exist`);
  await expect(warning).toBeVisible();
  await expect(warning).toHaveAttribute('data-level', 'warning');
  await expect(warning).toContainText('data_receiver[0].connections[0].root_path');
});
