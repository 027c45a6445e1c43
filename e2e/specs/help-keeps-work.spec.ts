import { ConfigPage } from '../pages/config-page.js';
import { ConsoleApp } from '../pages/console-app.js';
import { expect, test } from '../fixtures/console-server.js';

test('help opens beside the configuration editor: the unsaved text stays, nothing asks to leave or for the token again', async ({ page, server }) => {
  const app = new ConsoleApp(page);
  await app.open(server, 'configuration');
  const config = new ConfigPage(page);
  await expect(config.editorText).toContainText('demo_plant_files');
  await config.retypeValue('"poll_interval": 2,', '2', '7');
  await expect(page.getByText('unsaved changes')).toBeVisible();

  await page.getByRole('banner').getByRole('button', { name: 'Help', exact: true }).click();
  const panel = page.getByRole('complementary', { name: 'Help' });
  await expect(panel.locator('article.help-doc')).toHaveAttribute('data-doc', 'compatibility');
  // No "leave without saving?" and no token screen: the page is still there, under the panel.
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByLabel('API token')).toHaveCount(0);
  await expect(app.navLink('Configuration')).toHaveAttribute('aria-current', 'page');
  await panel.getByRole('button', { name: 'Close help' }).click();

  await expect(config.line('"poll_interval": 7,')).toBeVisible();
  await expect(page.getByText('unsaved changes')).toBeVisible();
});
