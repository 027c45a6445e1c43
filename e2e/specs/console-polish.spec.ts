import { ConfigPage } from '../pages/config-page.js';
import { ConsoleApp } from '../pages/console-app.js';
import { StatusPage } from '../pages/status-page.js';
import { expect, test } from '../fixtures/console-server.js';

/** The page background of the theme in force (base.css: light #eef1f4, dark #12171d). */
const pageBackground = (page: import('@playwright/test').Page) => page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--bg').trim());

test('the theme toggle: light, dark or the system, remembered in this browser', async ({ page, server }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  const app = new ConsoleApp(page);
  await app.open(server);
  const theme = page.getByRole('banner').getByRole('button', { name: /^Theme: / });
  /** Clicks the toggle until it says `choice` (it steps System → Light → Dark). */
  const choose = async (choice: 'System' | 'Light' | 'Dark') => {
    for (let i = 0; i < 3 && (await theme.getAttribute('aria-label')) !== `Theme: ${choice}`; i += 1) await theme.click();
    await expect(theme).toHaveAttribute('aria-label', `Theme: ${choice}`);
  };
  await expect(theme).toHaveAttribute('aria-label', 'Theme: System');
  expect(await pageBackground(page)).toBe('#eef1f4');

  await choose('Dark');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  expect(await pageBackground(page)).toBe('#12171d');
  // Remembered: a new visit opens dark although the system is light.
  await app.open(server, 'logs');
  await expect(theme).toHaveAttribute('aria-label', 'Theme: Dark');
  expect(await pageBackground(page)).toBe('#12171d');

  // Light wins over a dark system; System follows it again.
  await page.emulateMedia({ colorScheme: 'dark' });
  await choose('Light');
  expect(await pageBackground(page)).toBe('#eef1f4');
  await choose('System');
  await expect(page.locator('html')).not.toHaveAttribute('data-theme', /./);
  expect(await pageBackground(page)).toBe('#12171d');
});

test('each page opens its documentation beside it, and the documents link to each other', async ({ page, server }) => {
  test.slow();
  const app = new ConsoleApp(page);
  await app.open(server);
  const help = page.getByRole('banner').getByRole('button', { name: 'Help', exact: true });
  const panel = page.getByRole('complementary', { name: 'Help' });
  const doc = panel.locator('article.help-doc');

  // Status: the README's part about the console, scrolled to.
  await help.click();
  await expect(doc).toHaveAttribute('data-doc', 'readme');
  await expect(doc.locator('#the-console')).toBeInViewport();
  // The panel follows the page it is beside.
  for (const [name, id, heading] of [
    ['Logs', 'logs', /Logs/],
    ['KPIs', 'kpi', /KPIs/],
    ['Streams', 'data-path', /data path/i],
    ['Agents', 'fleet', /./],
  ] as const) {
    await app.goTo(name);
    await expect(doc).toHaveAttribute('data-doc', id);
    await expect(doc.locator('h1').first()).toHaveText(heading);
  }

  await app.goTo('Status');
  await expect(doc).toHaveAttribute('data-doc', 'readme');
  // A link to another document opens it in the panel; the page stays.
  await doc.getByRole('link', { name: 'docs/kpi.md' }).first().click();
  await expect(doc).toHaveAttribute('data-doc', 'kpi');
  await expect(app.navLink('Status')).toHaveAttribute('aria-current', 'page');
  await panel.getByLabel('Document').selectOption('logs');
  await expect(doc).toHaveAttribute('data-doc', 'logs');
  // Help documents for people running the agent: no paths of test files.
  for (const id of ['readme', 'security', 'mqtt', 'data-quality']) {
    await panel.getByLabel('Document').selectOption(id);
    await expect(doc).toHaveAttribute('data-doc', id);
    await expect(doc).not.toContainText(/\.(test|spec)\.ts/);
  }
  await panel.getByRole('button', { name: 'Close help' }).click();
  await expect(panel).toHaveCount(0);
});

test('charts have a title, a legend and a tooltip with the values under the pointer', async ({ page, server }) => {
  test.slow();
  const app = new ConsoleApp(page);
  await app.open(server);
  const status = new StatusPage(page);
  await expect(status.loadChart).toBeVisible({ timeout: 20_000 });
  const frame = page.locator('.time-chart-frame', { has: status.loadChart });
  await expect(frame.locator('.time-chart-title')).toHaveText('CPU, memory and disk (%), last 3 minutes');
  await expect(frame.locator('.chart-legend-item')).toHaveText(['CPU', 'Memory', 'Disk']);

  await status.loadChart.scrollIntoViewIfNeeded();
  const box = (await frame.locator('.u-over').boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.move(box.x + box.width - 20, box.y + box.height / 2, { steps: 4 });
  const tooltip = frame.getByRole('tooltip');
  await expect(tooltip).toBeVisible();
  // It stays while the chart takes new samples under a still pointer.
  await expect(status.loadChart).not.toHaveAttribute('data-points', (await status.loadChart.getAttribute('data-points')) ?? '');
  await expect(tooltip).toBeVisible();
  await expect(tooltip).toContainText(/CPU: [\d.]+ %/);
  await expect(tooltip).toContainText(/Memory: [\d.]+ %/);
  await page.mouse.move(box.x + box.width / 2, box.y - 40);
  await expect(tooltip).toBeHidden();
});

test('the Streams table keeps its column widths whatever it shows', async ({ page, server }) => {
  const app = new ConsoleApp(page);
  await app.open(server);
  await app.goTo('Streams');
  const table = page.getByRole('table', { name: 'Streams' });
  await expect(table.locator('tbody tr').nth(1)).toBeVisible();
  const widths = () => table.locator('thead th').evaluateAll((cells) => cells.map((cell) => Math.round(cell.getBoundingClientRect().width)));
  const all = await widths();
  const filter = page.getByRole('searchbox', { name: 'Filter streams' });
  for (const text of ['Oven_2', 'Press_1:cycle', 'no such stream']) {
    await filter.fill(text);
    await expect(async () => expect(await widths()).toEqual(all)).toPass({ timeout: 5_000 });
  }
});

test('completing a key writes "key": and a placeholder for its value, also for a key of several types', async ({ page, server }) => {
  // Monaco typing on a loaded machine is slow.
  test.slow();
  const app = new ConsoleApp(page);
  await app.open(server, 'configuration');
  const config = new ConfigPage(page);
  await expect(config.editorText).toContainText('demo_plant_files');
  // skiprows takes a number or a list of rows: a union, which used to complete as the bare key.
  await config.goToText('"separator": ",",');
  await page.keyboard.press('End');
  await page.keyboard.press('Enter');
  await page.keyboard.type('"skipro');
  await page.keyboard.press('Control+Space');
  await expect(config.suggestions.filter({ hasText: 'skiprows' }).first()).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(config.line('"skiprows": 0,')).toBeVisible();
});
