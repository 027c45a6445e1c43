import { ConfigPage } from '../pages/config-page.js';
import { ConsoleApp } from '../pages/console-app.js';
import { expect, test } from '../fixtures/console-server.js';

test('a notice about the text goes once the text changes: "Validation passed" does not outlive a rename', async ({ page, server }) => {
  const app = new ConsoleApp(page);
  await app.open(server, 'configuration');
  const config = new ConfigPage(page);
  await expect(config.editorText).toContainText('demo_plant_files');
  await config.validate.click();
  await expect(config.notice).toContainText('Validation passed');
  // Rename the transmit: what was validated is no longer the text.
  await config.goToText('"transmit_name": "archive"');
  await config.replaceBeforeLineEnd(2, 0, '2');
  await expect(config.line('"transmit_name": "archive2",')).toBeVisible();
  await expect(config.notice).toHaveCount(0);
  await config.validate.click();
  await expect(config.notice).toContainText('Validation passed');
});
