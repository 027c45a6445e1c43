import { ConfigPage } from '../pages/config-page.js';
import { ConsoleApp } from '../pages/console-app.js';
import { expect, test } from '../fixtures/console-server.js';

test('an engineer breaks a field, sees where, fixes it and saves after reviewing the diff', async ({ page, server }) => {
  const app = new ConsoleApp(page);
  await app.open(server);
  await app.goTo('Configuration');

  const config = new ConfigPage(page);
  await expect(config.editorText).toContainText('demo_plant_files');
  await expect(config.lastModified).not.toHaveText('never saved');
  const savedBefore = await config.lastModified.textContent();

  // poll_interval 2 → 0 (the minimum is 1). No quotes typed: Monaco's auto-closing would race them.
  await config.retypeValue('"poll_interval": 2,', '2', '0');

  const problem = config.violation(/poll_interval must be/);
  await expect(problem).toBeVisible();
  await expect(problem).toHaveAttribute('data-level', 'error');
  await expect(config.errorMarkers.first()).toBeVisible();

  // Saving an invalid configuration is refused with the reason.
  await config.save.click();
  await expect(config.notice).toContainText('Not saved');

  // The list entry leads to the place; there the value is fixed.
  await problem.click();
  await page.keyboard.press('Shift+End');
  await page.keyboard.insertText('3,');
  await expect(config.errorViolations).toHaveCount(0);
  await expect(config.errorMarkers).toHaveCount(0);
  await config.validate.click();
  await expect(config.notice).toContainText('Validation passed');

  await config.save.click();
  await expect(config.diff).toBeVisible();
  await expect(config.diff).toContainText('"poll_interval": 3');
  await config.dialogSave().click();
  await expect(app.toast('Configuration saved')).toBeVisible();
  await expect(config.lastModified).not.toHaveText(savedBefore ?? '');
  await expect(config.line('"poll_interval": 3,')).toBeVisible();
});
