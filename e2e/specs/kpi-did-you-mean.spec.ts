import { ConsoleApp } from '../pages/console-app.js';
import { KpiPage } from '../pages/kpi-page.js';
import { StatusPage } from '../pages/status-page.js';
import { expect, test } from '../fixtures/console-server.js';

test('a misspelt machine or field of a KPI is named with did-you-mean from the data the agent keeps', async ({ page, server }) => {
  test.slow();
  const app = new ConsoleApp(page);
  await app.open(server);
  // The demo's press and oven have sent records (kept for KPIs) before the KPI is written.
  const status = new StatusPage(page);
  for (const stream of ['demo_plant_files/Press_1:cycle', 'demo_plant_files/Oven_2:process'])
    await expect(status.flowRow(stream).locator('[data-last-record-at]')).not.toHaveAttribute('data-last-record-at', '', { timeout: 20_000 });

  await app.goTo('KPIs');
  const kpis = new KpiPage(page);
  await kpis.template('Line KPI').click();
  await expect(kpis.valid).toHaveText('Valid KPI');

  // Oven_2 → Oven_3 in the first entry that names it; part_id → part_idx in the first that reads it.
  // The editor's own search brings each line on screen (Monaco renders only visible lines).
  await kpis.line('"formula"').click();
  for (const [text, edit] of [
    ['"machine": "Oven_2"', async () => {
      await page.keyboard.press('Backspace');
      await page.keyboard.type('3');
    }],
    ['"name": "part_id"', () => page.keyboard.type('x')],
  ] as const) {
    await page.keyboard.press('Control+Home');
    await page.keyboard.press('Control+f');
    await page.keyboard.type(text);
    await page.keyboard.press('Enter');
    await page.keyboard.press('Escape');
    await page.keyboard.press('End');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await edit();
  }

  const machine = kpis.violation(/No records of machine "Oven_3" .* Did you mean "Oven_2"\?/);
  const field = kpis.violation(/of machine "Press_1" .* field "part_idx".* Did you mean "part_id"\?/);
  await expect(machine).toBeVisible();
  await expect(machine).toHaveAttribute('data-level', 'warning');
  await expect(field).toBeVisible();
  await expect(field).toHaveAttribute('data-level', 'warning');
  // Warnings: the KPI may be written before its machine sends; it stays valid and can be saved.
  await expect(kpis.valid).toHaveText(/Valid KPI \(\d+ warnings\)/);
});
