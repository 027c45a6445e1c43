import fs from 'node:fs';
import path from 'node:path';
import { ConfigPage } from '../pages/config-page.js';
import { ConsoleApp } from '../pages/console-app.js';
import { expect, test } from '../fixtures/console-server.js';

test('an engineer adds a transmit, is told it sends records read from now on, restreams the oven stream to it with the save, and its files arrive', async ({ page, server }) => {
  // CSV transmits write inside the agent's data directory (unless an operator allows another folder).
  const folder = path.join(server.dataDirectory, 'oven_copy');
  const app = new ConsoleApp(page);
  await app.open(server);
  // The demo has read its files already: these records are marked read when the transmit is added.
  const ovenRead = async () => {
    const answer = await page.request.get(`${server.origin}/v1/streams`, { headers: { authorization: `Bearer ${server.token}` } });
    const oven = (await answer.json()).response.find((s: { stream: string }) => s.stream === 'Oven_2:process');
    return (oven?.stats.records_read ?? 0) as number;
  };
  await expect.poll(ovenRead, { timeout: 20_000 }).toBeGreaterThan(0);
  const readBefore = await ovenRead();
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
  // Rows (less one header per file) at least as many as the oven had read before: not only the new ones.
  const rowsArrived = () => {
    const files = (fs.existsSync(folder) ? fs.readdirSync(folder, { recursive: true }) : []).map(String).filter((name) => name.endsWith('.csv'));
    const lines = files.reduce((n, name) => n + fs.readFileSync(path.join(folder, name), 'utf8').split('\n').filter((line) => line.trim() !== '').length, 0);
    return lines - files.length;
  };
  await expect.poll(rowsArrived, { timeout: 30_000 }).toBeGreaterThanOrEqual(readBefore);
});
