import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigPage } from '../pages/config-page.js';
import { ConsoleApp } from '../pages/console-app.js';
import { expect, test } from '../fixtures/console-server.js';

test('an engineer adds a transmit, is told it sends records read from now on, restreams the oven stream to it with the save, and its files arrive', async ({ page, server }) => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-e2e-new-transmit-'));
  const app = new ConsoleApp(page);
  await app.open(server);
  // The demo has read its files already: these records are marked read when the transmit is added.
  await expect.poll(async () => {
    const answer = await page.request.get(`${server.origin}/v1/streams`, { headers: { authorization: `Bearer ${server.token}` } });
    const oven = (await answer.json()).response.find((s: { stream: string }) => s.stream === 'Oven_2:process');
    return oven?.stats.records_read ?? 0;
  }, { timeout: 20_000 }).toBeGreaterThan(0);
  await app.goTo('Configuration');
  const config = new ConfigPage(page);
  await expect(config.editorText).toContainText('demo_plant_files');

  await config.goToText('"data_transmit": [');
  await page.keyboard.press('End');
  await page.keyboard.insertText(`{ "transmit_name": "oven_copy", "transmit_type": "csv", "filter_stream": ["Oven_2:process"], "directory": ${JSON.stringify(folder)} },`);
  await config.save.click();

  const notice = config.saveDialog().getByTestId('new-transmit-notice');
  await expect(notice).toContainText('The new transmit "oven_copy" sends records read from now on.');
  await expect(notice).toContainText('unless you restream them');
  // Only what the new transmit takes is offered.
  await expect(notice.getByRole('checkbox')).toHaveCount(1);
  await notice.getByRole('checkbox', { name: /Oven_2:process/ }).check();
  await config.saveDialog().getByRole('button', { name: /^Save to .* and restream$/ }).click();

  await expect(app.toast(/^Configuration saved/)).toBeVisible();
  await expect(app.toast('Restream started')).toBeVisible();
  // What the oven read before the transmit existed reaches it after all.
  await expect.poll(() => fs.readdirSync(folder, { recursive: true }).filter((name) => String(name).endsWith('.csv')).length, { timeout: 30_000 }).toBeGreaterThan(0);
});
