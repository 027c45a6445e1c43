import type { Locator, Page } from '@playwright/test';

/** The configuration editor. Monaco renders only visible lines; these locators read what is shown. */
export class ConfigPage {
  readonly editor: Locator;
  readonly editorText: Locator;
  readonly errorMarkers: Locator;
  readonly violations: Locator;
  readonly errorViolations: Locator;
  readonly lastModified: Locator;
  readonly save: Locator;
  readonly validate: Locator;
  readonly notice: Locator;
  readonly diff: Locator;

  constructor(readonly page: Page) {
    this.editor = page.getByTestId('config-editor');
    this.editorText = this.editor.locator('.view-lines');
    this.errorMarkers = this.editor.locator('.squiggly-error');
    this.violations = page.getByRole('list', { name: 'Violations' }).getByRole('button');
    this.errorViolations = page.getByRole('list', { name: 'Violations' }).locator('[data-level="error"]');
    this.lastModified = page.getByLabel('Last modified');
    this.save = page.getByRole('button', { name: 'Save…' });
    this.validate = page.getByRole('button', { name: 'Validate' });
    this.notice = page.locator('.notice');
    this.diff = page.getByTestId('save-diff').locator('.monaco-diff-editor');
  }

  line(text: string): Locator {
    return this.editor.locator('.view-line', { hasText: text });
  }

  /** The rendered token `token` on the line containing `lineText`. */
  valueToken(lineText: string, token: string): Locator {
    return this.line(lineText).locator('span > span', { hasText: new RegExp(`^${token.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) });
  }

  /**
   * Replaces the value at the end of the line containing `lineText` ("key": value, or "key": value)
   * with `value`, by keyboard from the end of the line. A double-click on the token would be quicker,
   * but on a loaded machine Monaco can take it for two single clicks and the text lands beside it.
   */
  async retypeValue(lineText: string, oldValue: string, value: string): Promise<void> {
    await this.valueToken(lineText, oldValue).click();
    await this.page.keyboard.press('End');
    if (lineText.trimEnd().endsWith(',')) await this.page.keyboard.press('ArrowLeft');
    for (let i = 0; i < oldValue.length; i++) await this.page.keyboard.press('Shift+ArrowLeft');
    await this.page.keyboard.insertText(value);
  }

  insertTemplate(protocol: 'localfile' | 'smb' | 'sql' | 'opcua' | 'mqtt' | 'mqtt transmit' | 'remotedatapost transmit'): Locator {
    return this.page.getByRole('group', { name: 'Insert template' }).getByRole('button', { name: protocol, exact: true });
  }

  violation(text: string | RegExp): Locator {
    return this.violations.filter({ hasText: text });
  }

  /** In the save dialog: the services of one group (restart, start, stop, keep running). */
  deployGroup(label: 'Restart (configuration changed)' | 'Start' | 'Stop (no longer configured)' | 'Keep running untouched'): Locator {
    return this.page.getByRole('dialog', { name: 'Save these changes?' }).getByRole('list', { name: label, exact: true }).getByRole('listitem');
  }

  dialogSave(): Locator {
    return this.page.getByRole('dialog', { name: 'Save these changes?' }).getByRole('button', { name: 'Save', exact: true });
  }
}
