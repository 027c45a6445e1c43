import { ConsoleApp, type PageName } from '../pages/console-app.js';
import { expect, test } from '../fixtures/console-server.js';
import { de } from '../../renderer/src/i18n/messages/de.js';
import { en } from '../../renderer/src/i18n/messages/en.js';

/** Every text of a catalog. */
const texts = (catalog: object): string[] => Object.values(catalog).flatMap((value) => (typeof value === 'string' ? [value] : texts(value as object)));
const words = (text: string) => text.replace(/\{[^{}]*\}|<[^>]*>/g, ' ').match(/\p{L}{4,}/gu) ?? [];
const german = new Set(texts(de).flatMap(words).map((w) => w.toLowerCase()));
/** English words of the catalog that German writes differently ("Configuration", "Services", …). */
const ENGLISH_ONLY = [...new Set(texts(en).flatMap(words))].filter((w) => !german.has(w.toLowerCase()));

/** The English-only words in what the user reads of `selector` (names from the agent's data aside). */
async function englishWordsIn(app: ConsoleApp, selector: string): Promise<string[]> {
  const shown = (await app.page.locator(selector).allInnerTexts()).join('\n');
  return ENGLISH_ONLY.filter((word) => new RegExp(`\\b${word}\\b`).test(shown));
}

const PAGES: PageName[] = ['Status', 'Configuration', 'Streams', 'Logs', 'KPIs', 'Agents', 'Tokens'];

// A German browser, as the plant's.
test.use({ locale: 'de-DE', timezoneId: 'Europe/Berlin' });

test('under a German browser the console speaks German, and the header switches it to English and remembers it', async ({ page, server }) => {
  expect(ENGLISH_ONLY).toContain('Configuration');
  const app = new ConsoleApp(page);
  await app.open(server, 'status');
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await expect(app.languageChoice).toHaveValue('de');

  // Status: headings, table heads, buttons and the header in German. The data-flow, transmits,
  // machine-load and Sparkplug cards are not in the catalog yet (scripts/console-literal-text.test.ts lists them).
  await expect(page.getByRole('heading', { name: 'Dienste' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Neu starten' })).toBeVisible();
  await expect(page.getByTestId('status-updated')).toContainText(/^Aktualisiert \d{2}\.\d{2}\.\d{4}/);
  expect(await englishWordsIn(app, '.app-header, main h1, .agent-card, [data-testid="quality-panel"], [data-testid="status-updated"], table[aria-label="Dienste"]')).toEqual([]);

  // Every page: its name in the navigation and the header stay German.
  for (const name of PAGES) {
    await app.goTo(name);
    expect(await englishWordsIn(app, '.app-header'), name).toEqual([]);
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
