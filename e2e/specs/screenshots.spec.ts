import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '../fixtures/console-server.js';
import { ConfigPage } from '../pages/config-page.js';
import { ConsoleApp, type PageName } from '../pages/console-app.js';
import { KpiPage } from '../pages/kpi-page.js';

// The README's pictures are replaced only on request (TRIBUTARY_UPDATE_SCREENSHOTS=1): an ordinary
// run (CI) takes them into test-results/ and leaves the checkout as it was.
const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const OUT = process.env.TRIBUTARY_UPDATE_SCREENSHOTS === '1' ? path.join(REPO, 'docs', 'screenshots') : path.join(REPO, 'test-results', 'screenshots');

/** Each page of the console with the demo plant running, for the README (docs/screenshots/). */
test('screenshots of every page with the demo running', async ({ page, server }) => {
  const app = new ConsoleApp(page);
  await app.open(server);
  // Let the demo line produce data first, so the pages show a plant at work.
  await expect(async () => {
    const response = await page.request.get(`${server.origin}/v1/status`, { headers: { authorization: `Bearer ${server.token}` } });
    const status = (await response.json()) as { response: { last_data_transmit: Record<string, { records_sent: number }> } };
    expect(Object.values(status.response.last_data_transmit).some((t) => t.records_sent > 0)).toBe(true);
  }).toPass({ timeout: 20_000 });
  // Fresh page data, so the first screenshot shows the records already sent.
  await page.reload();
  await expect(app.readyRoot).toBeVisible();
  // What shows that each page has its content (editors load lazily).
  const loaded: Record<PageName, string> = {
    Status: '[data-testid="machine-load-chart"]',
    Configuration: '.monaco-editor',
    Streams: 'tbody tr[data-stream]',
    Logs: '.log-row',
    KPIs: '.monaco-editor',
    Agents: 'tr[data-agent]',
    Tokens: 'tr[data-token="bootstrap"]',
  };
  for (const name of Object.keys(loaded) as PageName[]) {
    await app.goTo(name);
    await expect(page.locator(loaded[name]).first()).toBeVisible({ timeout: 20_000 });
    await page.waitForLoadState('networkidle');
    if (name === 'KPIs') {
      // The preview chart of the template KPI on the demo's data.
      const kpis = new KpiPage(page);
      await expect(async () => {
        await kpis.preview.click();
        await expect(kpis.chart).toHaveAttribute('data-points', /^[1-9]\d*$/, { timeout: 2_000 });
      }).toPass({ timeout: 20_000 });
      await kpis.chart.scrollIntoViewIfNeeded();
    }
    await page.screenshot({ path: path.join(OUT, `${name.toLowerCase()}.png`) });
  }
  // The preview of the demo's file receiver, from the editor.
  await app.goTo('Configuration');
  const config = new ConfigPage(page);
  await expect(config.editorText).toContainText('demo_plant_files');
  await config.preview.click();
  await expect(config.previewTable('Press_1:cycle')).toBeVisible({ timeout: 20_000 });
  await page.screenshot({ path: path.join(OUT, 'preview.png') });
});
