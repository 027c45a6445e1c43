import { ConfigPage } from '../pages/config-page.js';
import { ConsoleApp } from '../pages/console-app.js';
import { expect, test } from '../fixtures/console-server.js';
import { de } from '../../renderer/src/i18n/messages/de.js';
import { en } from '../../renderer/src/i18n/messages/en.js';

/** Every text of a catalog. */
const texts = (catalog: object): string[] => Object.values(catalog).flatMap((value) => (typeof value === 'string' ? [value] : texts(value as object)));
const words = (text: string) => text.replace(/\{[^{}]*\}|<[^>]*>/g, ' ').match(/\p{L}{4,}/gu) ?? [];
const german = new Set(texts(de).flatMap(words).map((w) => w.toLowerCase()));
/** English words of the catalog that German writes differently ("Configuration", "Services", …). */
const ENGLISH_ONLY = [...new Set(texts(en).flatMap(words))].filter((w) => !german.has(w.toLowerCase()));

/**
 * The English-only words in what the console itself writes on the page: headings, table heads,
 * buttons, labels, legends, placeholders and the header. Left out: what comes from the agent or the
 * plant (option lists of component names, code, record values, violation and marker texts: those
 * are the agent's, written from its codes, and checked apart).
 */
async function englishWordsIn(app: ConsoleApp, selector: string): Promise<string[]> {
  const shown = await app.page.evaluate((css) => {
    const texts: string[] = [];
    for (const element of Array.from(document.querySelectorAll<HTMLElement>(css))) {
      const copy = element.cloneNode(true) as HTMLElement;
      copy.querySelectorAll('select, option, code, .mono, .violation-text, .marker-message, .muted.small').forEach((e) => e.remove());
      texts.push(copy.textContent ?? '', element.getAttribute('placeholder') ?? '', element.getAttribute('title') ?? '');
    }
    return texts.join('\n');
  }, selector);
  return ENGLISH_ONLY.filter((word) => new RegExp(`(^|[^\\p{L}])${word}($|[^\\p{L}])`, 'u').test(shown));
}

/** What the console writes around the data, on every page. */
const CHROME = '.app-header, main h1, main h2, main h3, main th, main button, main label, main legend, main summary, main [placeholder], main .violation-level';

// A German browser, as the plant's.
test.use({ locale: 'de-DE', timezoneId: 'Europe/Berlin' });

test('under a German browser every page speaks German (a violation shown on Configuration), and the header switches to English and remembers it', async ({ page, server }) => {
  expect(ENGLISH_ONLY).toContain('Configuration');
  const app = new ConsoleApp(page);
  await app.open(server, 'status');
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await expect(app.languageChoice).toHaveValue('de');

  // Status: the agent, data flow, quality, services and transmits in German, numbers the German way.
  await expect(page.getByRole('heading', { name: 'Dienste' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Datenfluss' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Neu starten' })).toBeVisible();
  await expect(page.getByTestId('status-updated')).toContainText(/^Aktualisiert \d{2}\.\d{2}\.\d{4}/);
  await expect(page.locator('.load-value').first()).toHaveText(/^\d+,\d %$/);
  expect(await englishWordsIn(app, CHROME), 'Status').toEqual([]);

  // Configuration: a mistake typed in the editor is listed as a violation in German: the agent sends
  // its code and parameters (schema.too_small), the console writes them from its German catalog.
  await app.goTo('Configuration');
  const config = new ConfigPage(page);
  await expect(config.editorText).toContainText('demo_plant_files');
  await config.retypeValue('"poll_interval": 2,', '2', '0');
  const violation = page.locator('.violation[data-level="error"]').first();
  await expect(violation).toBeVisible();
  await expect(violation.locator('.violation-level')).toHaveText('Fehler');
  await expect(violation.locator('.violation-text')).toHaveText('poll_interval muss mindestens 1 sein, ist aber 0.');
  await expect(page.getByRole('heading', { name: /^Probleme/ })).toBeVisible();
  expect(await englishWordsIn(app, CHROME), 'Configuration').toEqual([]);
  await page.keyboard.press('Control+z');

  for (const name of ['Streams', 'Logs', 'KPIs', 'Agents', 'Tokens'] as const) {
    await app.goTo(name);
    await expect(page.locator('main h1')).toBeVisible();
    // Lazy parts (the KPI editor) and the first data are in before the words are read.
    await expect(page.locator('main').getByText(/wird geladen…$/)).toHaveCount(0);
    expect(await englishWordsIn(app, CHROME), name).toEqual([]);
  }
  await expect(app.navLink('Configuration')).toHaveText('Konfiguration');
  await expect(app.navLink('Streams')).toHaveText('Datenströme');

  // Back to English in the header: at once, and still after a reload (remembered in this browser).
  await app.languageChoice.selectOption('en');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(app.navLink('Configuration')).toHaveText('Configuration');
  await page.reload();
  await expect(app.readyRoot).toBeVisible();
  await expect(app.navLink('Streams')).toHaveText('Streams');
  await app.goTo('Status');
  await expect(page.getByRole('heading', { name: 'Services' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
});
