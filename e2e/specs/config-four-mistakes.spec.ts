import type { Locator } from '@playwright/test';
import { ConfigPage } from '../pages/config-page.js';
import { ConsoleApp } from '../pages/console-app.js';
import { expect, test } from '../fixtures/console-server.js';

/** True when an error squiggle is drawn on the line the cursor is on (where a violation's click led). */
function squiggleAtCursor(editor: Locator): Promise<boolean> {
  return editor.locator('.monaco-editor').evaluate((element) => {
    const cursor = element.querySelector('.cursor');
    if (!cursor) return false;
    const top = cursor.getBoundingClientRect().top;
    return Array.from(element.querySelectorAll('.squiggly-error')).some((squiggle) => Math.abs(squiggle.getBoundingClientRect().top - top) < 6);
  });
}

test('a misspelt key, a wrong value, an unknown time zone and a bad encoding are reported in one validation, each marked', async ({ page, server }) => {
  // Monaco typing on a loaded machine is slow.
  test.slow();
  const app = new ConsoleApp(page);
  await app.open(server);
  await app.goTo('Configuration');
  const config = new ConfigPage(page);
  await expect(config.editorText).toContainText('demo_plant_files');

  // Each edit by keyboard from the end of its line (Monaco renders only the lines on screen).
  await config.goToText('"delete_completed": false,');
  await config.replaceBeforeLineEnd('": false,'.length, 'delete_completed'.length, 'delete_complete');
  await page.keyboard.press('Escape');
  await config.retypeValue('"poll_interval": 2,', '2', '0');
  await config.goToText('"localtz": "Europe/Berlin"');
  await config.replaceBeforeLineEnd(2, 'Europe/Berlin'.length, 'Europe/Berln');
  await page.keyboard.press('Escape');
  await config.goToText('"bad_lines_action": "warn"');
  await page.keyboard.press('End');
  await page.keyboard.insertText(', "encoding": "utf-9"');
  await page.keyboard.press('Escape');

  await config.validate.click();
  await expect(config.notice).toContainText(/Validation failed: 4 errors/);
  const mistakes = [
    { says: /Unknown field "delete_complete"\. Did you mean "delete_completed"\?/, line: '"delete_complete": false,' },
    { says: /poll_interval must be/, line: '"poll_interval": 0,' },
    { says: /Europe\/Berln.*Did you mean "Europe\/Berlin"\?/, line: '"localtz": "Europe/Berln"' },
    { says: /"utf-9" is not a supported encoding/, line: '"encoding": "utf-9"' },
  ];
  await expect(config.errorViolations).toHaveCount(mistakes.length);
  for (const mistake of mistakes) {
    const violation = config.violation(mistake.says);
    await expect(violation).toHaveAttribute('data-level', 'error');
    // Its entry leads to the place, and the place is marked.
    await violation.click();
    await expect(config.line(mistake.line)).toBeVisible();
    await expect.poll(() => squiggleAtCursor(config.editor)).toBe(true);
  }
  await config.save.click();
  await expect(config.notice).toContainText('Not saved');
});
