import { ConfigPage } from '../pages/config-page.js';
import { ConsoleApp } from '../pages/console-app.js';
import { expect, test } from '../fixtures/console-server.js';

test('Ctrl+Space offers the fields and values the schema allows: keys, every parser type, time zones, receiver snippets', async ({ page, server }) => {
  const app = new ConsoleApp(page);
  await app.open(server, 'configuration');
  const config = new ConfigPage(page);
  await expect(config.editorText).toContainText('demo_plant_files');

  // Keys: the OPC UA receiver does not set queue_size yet.
  await config.goToText('"sampling_interval_ms": 1000,');
  await page.keyboard.press('End');
  await page.keyboard.press('Enter');
  await page.keyboard.type('"');
  await page.keyboard.press('Control+Space');
  await expect(config.suggestions.filter({ hasText: 'queue_size' })).toBeVisible();
  // Only the schema speaks: no words picked up from the document (a transmit's name, say).
  await expect(config.suggestions.filter({ hasText: 'archive' })).toHaveCount(0);
  await page.keyboard.press('Escape');
  await page.keyboard.press('Control+z');

  // Values: every parser type at parser_type of a parser that already has csv options (issue 56):
  // Excel, JSON and XML too, not only the types its options resemble.
  await config.goToText('"parser_type": "spreadsheet"');
  await config.replaceBeforeLineEnd(2, 'spreadsheet'.length, '');
  await page.keyboard.press('Control+Space');
  for (const type of ['excel', 'json', 'xml', 'csv']) await expect(config.suggestions.filter({ hasText: type }).first()).toBeVisible();
  await page.keyboard.press('Escape');
  await page.keyboard.press('Control+z');

  // Values: the time zone of the parser.
  await config.goToText('"localtz": "Europe/Berlin"');
  await config.replaceBeforeLineEnd(2, 'Europe/Berlin'.length, 'America/Ch');
  await page.keyboard.press('Control+Space');
  await expect(config.suggestions.filter({ hasText: 'America/Chicago' })).toBeVisible();
});
