import { ConsoleApp } from '../pages/console-app.js';
import { KpiPage } from '../pages/kpi-page.js';
import { expect, test } from '../fixtures/console-server.js';

test('an engineer writes a KPI, sees where it is wrong, fixes it, saves it and previews it on the demo data', async ({ page, server }) => {
  const app = new ConsoleApp(page);
  await app.open(server);
  await app.goTo('KPIs');

  const kpis = new KpiPage(page);
  await kpis.template('Machine-type KPI').click();
  await expect(kpis.line('"formula"')).toBeVisible();
  await expect(kpis.valid).toHaveText('Valid KPI');

  // A variable that is no dependency: a violation at the formula, marked in the editor.
  await kpis.cursorBeforeClosingQuote('"formula"');
  await page.keyboard.type(' + scrap');
  const problem = kpis.violation(/"scrap" \(position \d+\), which is not in dependencies/);
  await expect(problem).toBeVisible();
  await expect(problem).toHaveAttribute('data-level', 'error');
  await expect(problem).toContainText('formula');
  await expect(kpis.errorMarkers.first()).toBeVisible();
  await expect(kpis.valid).toHaveCount(0);

  // Fixed: the marker goes, "Valid KPI" comes back.
  for (let i = 0; i < ' + scrap'.length; i += 1) await page.keyboard.press('Backspace');
  await expect(kpis.valid).toHaveText('Valid KPI');
  await expect(kpis.errorMarkers).toHaveCount(0);

  await kpis.save.click();
  await expect(app.toast('Saved "good_part_rate"')).toBeVisible();
  await expect(kpis.library.filter({ hasText: 'Good part rate' })).toBeVisible();

  // The demo press writes a part a second: the preview shows values of the last hour.
  await expect(kpis.machines).toHaveValue(/Press_1/);
  await expect(async () => {
    await kpis.preview.click();
    await expect(kpis.chart).toHaveAttribute('data-points', /^[1-9]\d*$/, { timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  // A percentage: the value axis runs 0–100, with the good and bad bands named in the legend.
  await expect(kpis.chart).toHaveAttribute('data-y-range', '0,100');
  await expect(kpis.bands).toHaveText([/^Good ≥ \d+ %$/, /^Bad ≤ \d+ %$/]);
  await expect(kpis.summary.getByRole('row', { name: /Press_1/ })).toContainText('%');
  // The oven sends records, but none with the press's fields: "no value" says so.
  await expect(kpis.noValueReasons.filter({ hasText: 'Oven_2: no value.' })).toContainText(/\d[\d,]* records? from Oven_2 in this range, but none has a value for the fields? .*ok.* that this KPI maps\./);
});
