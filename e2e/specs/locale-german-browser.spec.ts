import { ConsoleApp } from '../pages/console-app.js';
import { LogsPage } from '../pages/logs-page.js';
import { TokensPage } from '../pages/tokens-page.js';
import { expect, test } from '../fixtures/console-server.js';
import { de } from '../../renderer/src/i18n/messages/de.js';

// A German browser in Berlin, as the plant engineer's.
test.use({ locale: 'de-DE', timezoneId: 'Europe/Berlin' });

test('under a German browser times, "Jump to time" and thousands are written the German way', async ({ page, server }) => {
  const app = new ConsoleApp(page);
  await app.open(server);
  await app.goTo('Tokens');
  const tokens = new TokensPage(page, de);
  await tokens.name.fill('Schicht B');
  await tokens.create.click();
  await app.dialog(/Zugang „Schicht B“/).getByRole('button', { name: de.common.close }).click();
  // 29.11.2026, 07:05:09 MEZ: day first, 24 hours, the zone.
  await expect(tokens.row('Schicht B').locator('time')).toHaveText(/^\d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}:\d{2} MES?Z$/);

  await app.goTo('Logs');
  const logs = new LogsPage(page, de);
  await expect(logs.jumpToTime).toHaveAttribute('placeholder', '31.12.2026, 22:45');
  await expect(logs.rows.first()).toBeVisible();
  await expect(logs.rows.first().locator('time')).toHaveText(/^\d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}:\d{2},\d{3} MES?Z$/);
  // A time typed the German way is read: the lines up to then.
  const now = new Date();
  const typed = new Intl.DateTimeFormat('de-DE', { timeZone: 'Europe/Berlin', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' }).format(now);
  await logs.jumpToTime.fill(typed);
  await expect(logs.go).toBeEnabled();
  await logs.go.click();
  await expect(logs.backToNewest).toBeVisible();

  await expect(logs.count).toContainText(/^\d[\d.]* von [\d.]+ Zeilen?/);

  // Decimals with the German mark on Status: memory and disk "12,3 %" and "3,2 von 15,6 GB belegt".
  await app.goTo('Status');
  await expect(page.locator('.load-value').first()).toHaveText(/^\d+,\d %$/);
  await expect(page.getByText(/^\d+,\d von \d+,\d GB belegt, \d+,\d GB frei$/).first()).toBeVisible();
});
