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

/** Tried from 1024 px up: the header keeps one line, the window no sideways scroll, and the managed agent's name readable. */
for (const width of [1024, 1280, 1920]) {
  test(`the header fits ${width} px and still names the agent being managed`, async ({ page, server }) => {
    await page.setViewportSize({ width, height: 768 });
    const app = new ConsoleApp(page);
    await app.open(server, 'status');
    const managed = page.getByTestId('managed-agent');
    await expect(managed).toContainText('(this agent)');
    const fit = await page.evaluate(() => {
      const header = document.querySelector('.app-header')!;
      const agent = document.querySelector<HTMLElement>('[data-testid="managed-agent"]')!;
      const tall = Array.from(header.querySelectorAll<HTMLElement>('.header-link, .badge, .managed-agent')).filter((el) => el.getBoundingClientRect().height > 34);
      return { page: document.documentElement.scrollWidth, header: header.scrollWidth, agentShown: agent.clientWidth, agentNeeds: agent.scrollWidth, wrapped: tall.map((el) => el.textContent) };
    });
    expect(fit.page).toBeLessThanOrEqual(width);
    expect(fit.header).toBeLessThanOrEqual(width);
    // Nothing in the header wraps onto a second line (a badge or link taller than one line of its text).
    expect(fit.wrapped).toEqual([]);
    // Shown whole, or at least its first 100 px (a long host name ends in "…", its tooltip has it all).
    expect(fit.agentShown).toBeGreaterThanOrEqual(Math.min(fit.agentNeeds, 100));
  });
}
