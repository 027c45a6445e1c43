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
  const cut = Array.from(header.querySelectorAll<HTMLElement>('*'))
    .filter((el) => el.children.length === 0 && el.textContent!.trim() !== '' && el.getBoundingClientRect().width > 0)
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
