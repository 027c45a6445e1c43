import { ConfigPage } from '../pages/config-page.js';
import { ConsoleApp } from '../pages/console-app.js';
import { expect, test } from '../fixtures/console-server.js';

test('the save dialog opens at the change with a summary, and the editor keeps text and cursor after saving', async ({ page, server }) => {
  const app = new ConsoleApp(page);
  await app.open(server, 'configuration');
  const config = new ConfigPage(page);
  await expect(config.editorText).toContainText('demo_plant_files');

  // A change far down the document: the rename transform near the end.
  await config.goToText('"cyc_t": "cycle_time_s"');
  await config.replaceBeforeLineEnd(1, 'cycle_time_s'.length, 'cycle_s');
  // Spacing of the engineer's own, which a reformat would take away.
  await page.keyboard.press('End');
  await page.keyboard.insertText('   ');
  await expect(config.violations).toHaveCount(0);
  const cursorBefore = await config.cursorLine();
  expect(cursorBefore).toBeGreaterThan(40);

  await config.save.click();
  await expect(config.changeSummary).toHaveText('Changes transform rename_columns (renames).');
  await expect(config.diff).toBeVisible();
  // Opened at the change; the long unchanged start is folded away.
  await expect(config.diffModifiedLines.filter({ hasText: '"cycle_s"' })).toBeVisible();
  await expect(config.diffModifiedLines.filter({ hasText: '"data_receiver_name": "demo_plant_files"' })).toHaveCount(0);
  await config.dialogSave().click();
  await expect(app.toast('Configuration saved')).toBeVisible();

  // The engineer's spacing stays (no reformatting) and the cursor is where it was.
  await expect(config.line('"cyc_t": "cycle_s"')).toHaveText(/"cycle_s"\s{3}$/);
  await expect(page.getByText('unsaved changes')).toHaveCount(0);
  expect(await config.cursorLine()).toBe(cursorBefore);
});
