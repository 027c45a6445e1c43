import { ConsoleApp, type PageName } from '../pages/console-app.js';
import { expect, test } from '../fixtures/console-server.js';

const PAGES: PageName[] = ['Status', 'Configuration', 'Streams', 'Logs', 'KPIs', 'Agents', 'Tokens'];

/** What sticks out sideways, and the header items whose text is cut (shown narrower than they need). */
function measure() {
  const wide = Array.from(document.querySelectorAll<HTMLElement>('main *'))
    .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1 && getComputedStyle(el).position !== 'fixed')
    .filter((el) => !el.closest('.monaco-editor, .log-view, [data-scrolls-sideways]'))
    .slice(0, 5)
    .map((el) => `${el.tagName.toLowerCase()}.${el.className} ${Math.round(el.getBoundingClientRect().right)}`);
  const header = document.querySelector('.app-header')!;
  // Every header item with text, not only the innermost: the managed-agent badge holds "Managing" in
  // a span of its own and was ellipsised as a whole (issue 56 point 5).
  const cut = [header as HTMLElement, ...Array.from(header.querySelectorAll<HTMLElement>('*'))]
    .filter((el) => el.textContent!.trim() !== '' && el.getBoundingClientRect().width > 0 && getComputedStyle(el).display !== 'contents')
    .filter((el) => el.scrollWidth > el.clientWidth + 1 || el.getBoundingClientRect().right > window.innerWidth + 1)
    .map((el) => el.textContent!.trim());
  return { page: document.documentElement.scrollWidth, window: window.innerWidth, wide, cut };
}

// Over HTTPS (the header then says "encrypted (HTTPS)"), as the plant engineer tried it.
test.use({ serveArgs: ['--tls'], ignoreHTTPSErrors: true });

test('at 1024×768 no page scrolls sideways and no header item is cut; the History dialog keeps its buttons in view', async ({ page, server }) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  const app = new ConsoleApp(page);
  await app.open(server, 'status');
  for (const name of PAGES) {
    await app.goTo(name);
    await page.waitForTimeout(500);
    const found = await page.evaluate(measure);
    expect(found.page, `${name}: ${found.wide.join('; ')}`).toBeLessThanOrEqual(found.window);
    expect(found.cut, `${name}: header items cut`).toEqual([]);
  }
  // Versions enough to fill the dialog: a few saves of the configuration as it is.
  const headers = { authorization: `Bearer ${server.token}` };
  const saved = (await (await page.request.get(`${server.origin}/v1/config`, { headers })).json()).response;
  for (let i = 0; i < 12; i += 1) {
    saved.data_receiver[0].poll_interval = 2 + (i % 2);
    expect((await page.request.post(`${server.origin}/v1/config`, { headers, data: saved })).status()).toBe(200);
  }
  await app.goTo('Configuration');
  await page.getByRole('button', { name: 'History…' }).click();
  const dialog = app.dialog('Configuration history');
  await expect(dialog).toBeVisible();
  await dialog.getByRole('row').nth(3).getByRole('button').click();
  // The dialog scrolls inside; its buttons stay in view.
  await expect(dialog.getByRole('button', { name: /^Restore revision \d+…$/ })).toBeInViewport({ ratio: 1 });
  await expect(dialog.getByRole('button', { name: 'Close' }).last()).toBeInViewport({ ratio: 1 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1024);
});

/** Every page at `width`: nothing wider than the window, no header item cut, "Managing" shown. */
async function headerKeepsEveryWord(app: ConsoleApp, width: number) {
  await app.page.setViewportSize({ width, height: 768 });
  for (const name of PAGES) {
    await app.goTo(name);
    await app.page.waitForTimeout(300);
    const found = await app.page.evaluate(measure);
    expect(found.page, `${width} px, ${name}: ${found.wide.join('; ')}`).toBeLessThanOrEqual(found.window);
    expect(found.cut, `${width} px, ${name}: header items cut`).toEqual([]);
    await expect(app.managedAgent.locator('.managed-agent-label'), `${width} px, ${name}`).toBeVisible();
  }
}

for (const [language, locale, managing] of [
  ['English', 'en-US', 'Managing'],
  ['German', 'de-DE', 'Verwaltet'],
] as const) {
  test.describe(`header in ${language}`, () => {
    test.use({ locale });
    test(`at 1024 and 1400 px the header cuts no item in ${language} and keeps "${managing}"`, async ({ page, server }) => {
      const app = new ConsoleApp(page);
      await app.open(server, 'status');
      await expect(app.managedAgent).toContainText(managing);
      await headerKeepsEveryWord(app, 1024);
      await headerKeepsEveryWord(app, 1400);
    });
  });
}
