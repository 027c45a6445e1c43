import { ConsoleApp } from '../pages/console-app.js';
import { StatusPage } from '../pages/status-page.js';
import { expect, test } from '../fixtures/console-server.js';

/** The demo's oven zone 1 freezes 3 s after the demo starts (electron/host/demo.ts). */
const FREEZE_STARTS_S = 3;
/** The demo's stuck check: after_seconds. */
const AFTER_SECONDS = 20;
/** One poll of the drop folder (2 s) and one refresh of the streams (5 s), with room for a loaded machine. */
const ONE_POLL_S = 2 + 5 + 10;

test('a demo sensor that freezes is marked stuck on Status within after_seconds plus one poll, and listed in the Quality panel', async ({ page, server }) => {
  test.setTimeout(120_000);
  const app = new ConsoleApp(page);
  await app.open(server);
  const status = new StatusPage(page);
  const oven = status.flowRow('demo_plant_files/Oven_2:process');
  await expect(oven).toBeVisible();
  const stuck = oven.locator('[data-quality-check="stuck"]');
  await expect(stuck).toContainText(/zone1_C has read \d+(\.\d+)? for \d+ (s|min) \(\d+ records\)/, { timeout: (FREEZE_STARTS_S + AFTER_SECONDS + ONE_POLL_S) * 1000 });
  await expect(stuck).toContainText('since');
  await expect(oven).toHaveAttribute('data-quality', 'findings');
  // The press, whose values keep changing, has no finding.
  await expect(status.flowRow('demo_plant_files/Press_1:cycle')).toHaveAttribute('data-quality', 'ok');
  const panel = page.getByTestId('quality-panel');
  await expect(panel.locator('[data-quality-row="Oven_2:process/stuck"]')).toContainText('zone1_C has read');
  // What stuck means and what to check, in words (issue 56 point 9).
  await expect(panel.locator('[data-quality-row="Oven_2:process/stuck"]')).toContainText('the value has not changed for longer than the check allows');
  await expect(panel.locator('[data-quality-row="Oven_2:process/stuck"]')).toContainText('Check the sensor and its wiring');
});
