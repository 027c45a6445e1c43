import { ConfigPage } from '../pages/config-page.js';
import { ConsoleApp } from '../pages/console-app.js';
import { LogsPage } from '../pages/logs-page.js';
import { expect, test } from '../fixtures/console-server.js';

/** The window itself never scrolls on the full-height pages: one scrollbar, inside the editor or the log. */
const windowFits = (page: import('@playwright/test').Page) => page.evaluate(() => document.documentElement.scrollHeight <= window.innerHeight);

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 1920, height: 1080 },
]) {
  test(`the editor and the log fit the window at ${viewport.width}×${viewport.height}, with a notice shown`, async ({ page, server }) => {
    await page.setViewportSize(viewport);
    const app = new ConsoleApp(page);
    await app.open(server, 'configuration');
    const config = new ConfigPage(page);
    await expect(config.editorText).toContainText('demo_plant_files');
    await config.validate.click();
    await expect(config.notice).toContainText('Validation passed');
    expect(await windowFits(page)).toBe(true);
    const editor = await config.editor.boundingBox();
    expect(editor!.y + editor!.height).toBeLessThanOrEqual(viewport.height);
    expect(editor!.height).toBeGreaterThan(250);

    await app.goTo('Logs');
    const logs = new LogsPage(page);
    await expect(logs.rows.first()).toBeVisible();
    expect(await windowFits(page)).toBe(true);
    const box = await logs.view.boundingBox();
    expect(box!.y + box!.height).toBeLessThanOrEqual(viewport.height);
  });
}
