import { AxeBuilder } from '@axe-core/playwright';
import { ConsoleApp, type PageName } from '../pages/console-app.js';
import { expect, test } from '../fixtures/console-server.js';

/** What shows that each page has its content (the editors load lazily). */
const LOADED: Record<PageName, string> = {
  Status: '.agent-card',
  Configuration: '.monaco-editor',
  Streams: 'tbody tr[data-stream]',
  Logs: '.log-row',
  KPIs: '.monaco-editor',
  Agents: 'tr[data-agent]',
  Tokens: 'tr[data-token="bootstrap"]',
};

// axe walks every node of five pages (two Monaco editors among them): minutes on a loaded machine.
test.setTimeout(180_000);

for (const scheme of ['light', 'dark'] as const) {
  test(`every page passes axe without serious or critical violations (${scheme})`, async ({ page, server }) => {
    await page.emulateMedia({ colorScheme: scheme });
    const app = new ConsoleApp(page);
    await app.open(server);
    // The skip link is the first stop of the keyboard and moves focus to the page.
    await page.keyboard.press('Tab');
    await expect(app.skipLink).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(app.main).toBeFocused();

    // Keyboard focus on the dark header bar shows a ring of at least 3:1; a mouse click shows none.
    await app.navLink('Status').focus();
    await page.keyboard.press('Tab');
    await expect(app.navLink('Configuration')).toBeFocused();
    const ring = await app.focusRing();
    expect(ring.style).toBe('solid');
    expect(ring.width).toBeGreaterThanOrEqual(2);
    expect(ring.contrast).toBeGreaterThanOrEqual(3);
    await app.navLink('Streams').click();
    await expect(app.navLink('Streams')).toBeFocused();
    expect((await app.focusRing()).style).toBe('none');

    for (const name of Object.keys(LOADED) as PageName[]) {
      await app.goTo(name);
      await expect(page.locator(LOADED[name]).first()).toBeVisible({ timeout: 20_000 });
      const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
      const serious = results.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
      expect(serious, `${name} in the ${scheme} theme`).toEqual([]);
    }
  });
}
