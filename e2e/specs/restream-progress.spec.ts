import fs from 'node:fs';
import path from 'node:path';
import { ConsoleApp } from '../pages/console-app.js';
import { StreamsPage } from '../pages/streams-page.js';
import { expect, test } from '../fixtures/console-server.js';

/** An old export of the press: rows enough (~15 MB) that reading it takes a while. */
function dropLargePressFile(dataDirectory: string): void {
  const file = path.join(dataDirectory, 'demo', 'drop', 'press1_20200101.csv');
  const handle = fs.openSync(file, 'w');
  fs.writeSync(handle, 'time,part_id,cyc_t,force_kN,ok\n');
  const start = Date.UTC(2020, 0, 1);
  for (let block = 0; block < 30; block++) {
    let text = '';
    for (let i = 0; i < 10_000; i++) {
      const n = block * 10_000 + i;
      const stamp = new Date(start + n * 1000).toISOString().slice(0, 19).replace('T', ' ');
      text += `${stamp},P${n},29.50,812.0,1\n`;
    }
    fs.writeSync(handle, text);
  }
  fs.closeSync(handle);
}

test('a restream of a large file shows a progress bar on Streams that advances until the file is done', async ({ page, server }) => {
  // The file is read twice (when dropped, and restreamed): minutes on a loaded machine.
  test.setTimeout(300_000);
  const app = new ConsoleApp(page);
  await app.open(server);
  await app.goTo('Streams');
  const streams = new StreamsPage(page);
  const press = streams.row('Press_1:cycle');
  dropLargePressFile(server.dataDirectory);
  // The agent reads the new file first (the agent's own state says when: all its rows, nothing being read).
  const headers = { authorization: `Bearer ${server.token}` };
  const pressStats = async () => ((await (await page.request.get(`${server.origin}/v1/streams`, { headers })).json()).response as { stream: string; stats: { records_read: number; reading: unknown } }[]).find((s) => s.stream === 'Press_1:cycle')!.stats;
  await expect.poll(async () => { const stats = await pressStats(); return stats.records_read >= 300_000 && stats.reading === null; }, { timeout: 180_000 }).toBe(true);
  await expect(streams.reading('Press_1:cycle')).toBeHidden();

  await streams.select('Press_1:cycle').check();
  await streams.restream.click();
  await app.dialog('Send these streams again?').getByRole('button', { name: 'Restream' }).click();
  const bar = streams.reading('Press_1:cycle');
  await expect(bar).toBeVisible({ timeout: 30_000 });
  const first = Number(await bar.locator('progress').getAttribute('value'));
  // The bar moves on, or the restream is done already (a quick machine reads the rest between two
  // looks, and the bar is gone then).
  const state = press.getByTestId('restream-state');
  await expect
    .poll(async () => {
      if ((await state.textContent({ timeout: 1000 }).catch(() => '')) === 'Restream done') return true;
      const value = await bar.locator('progress').getAttribute('value', { timeout: 1000 }).catch(() => null);
      return value !== null && Number(value) > first;
    }, { timeout: 60_000 })
    .toBe(true);
  await expect(press.getByTestId('restream-state')).toHaveText('Restream done', { timeout: 180_000 });
  await expect(bar).toBeHidden();
});
