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
  readonly preview: Locator;
  readonly notice: Locator;
  readonly diff: Locator;
  readonly diffModifiedLines: Locator;
  readonly changeSummary: Locator;
  readonly suggestions: Locator;
  readonly previewDialog: Locator;

  constructor(readonly page: Page) {
    this.editor = page.getByTestId('config-editor');
    this.editorText = this.editor.locator('.view-lines');
    this.errorMarkers = this.editor.locator('.squiggly-error');
    this.violations = page.getByRole('list', { name: 'Violations' }).getByRole('button');
    this.errorViolations = page.getByRole('list', { name: 'Violations' }).locator('[data-level="error"]');
    this.lastModified = page.getByLabel('Last modified');
    this.save = page.getByRole('button', { name: 'Save…' });
    this.validate = page.getByRole('button', { name: 'Validate' });
    this.preview = page.getByRole('button', { name: 'Preview…' });
    this.notice = page.locator('.page .notice');
    this.diff = page.getByTestId('save-diff').locator('.monaco-diff-editor');
    this.diffModifiedLines = page.getByTestId('save-diff').locator('.editor.modified .view-line');
    this.changeSummary = page.getByTestId('change-summary');
    this.suggestions = this.editor.locator('.suggest-widget .monaco-list-row');
    this.previewDialog = page.getByRole('dialog', { name: 'Preview: what the agent would read' });
  }

  /**
   * Finds `text` with the editor's own search (Ctrl+F), which scrolls it into view and selects it;
   * Monaco renders only the lines on screen.
   */
  async goToText(text: string): Promise<void> {
    await this.editorText.click();
    await this.page.keyboard.press('Control+f');
    await this.page.keyboard.type(text);
    await this.page.keyboard.press('Enter');
    await this.page.keyboard.press('Escape');
  }

  /**
   * Replaces the `length` characters before the end of the current line, less `fromEnd` characters,
   * with `text`. Keys, not a selection and typing: Monaco would wrap a selection in typed quotes.
   */
  async replaceBeforeLineEnd(fromEnd: number, length: number, text: string): Promise<void> {
    await this.page.keyboard.press('End');
    for (let i = 0; i < fromEnd; i += 1) await this.page.keyboard.press('ArrowLeft');
    for (let i = 0; i < length; i += 1) await this.page.keyboard.press('Shift+ArrowLeft');
    await this.page.keyboard.insertText(text);
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

  insertTemplate(protocol: 'localfile' | 'smb' | 'sql' | 'opcua' | 'mqtt' | 's7' | 'mqtt transmit' | 'remotedatapost transmit'): Locator {
    return this.page.getByRole('group', { name: 'Insert template' }).getByRole('button', { name: protocol, exact: true });
  }

  violation(text: string | RegExp): Locator {
    return this.violations.filter({ hasText: text });
  }

  /** In the save dialog: the services of one group (restart, start, stop, keep running). */
  deployGroup(label: 'Restart (configuration changed)' | 'Start' | 'Stop (no longer configured)' | 'Keep running untouched'): Locator {
    return this.page.getByRole('dialog', { name: /^Save these changes to / }).getByRole('list', { name: label, exact: true }).getByRole('listitem');
  }

  dialogSave(): Locator {
    return this.saveDialog().getByRole('button', { name: /^Save to / });
  }

  /** The save dialog; its title names the agent the configuration goes to. */
  saveDialog(): Locator {
    return this.page.getByRole('dialog', { name: /^Save these changes to / });
  }

  /** The table of first records of a stream in the preview, e.g. Press_1:cycle. */
  previewTable(stream: string): Locator {
    return this.previewDialog.getByRole('table', { name: `First records of ${stream}` });
  }

  previewSection(stream: string): Locator {
    return this.previewDialog.getByRole('region', { name: `Preview of ${stream}` });
  }

  /** Where the cursor is (line number), from Monaco's own cursor position. */
  cursorLine(): Promise<number> {
    return this.editor.locator('.monaco-editor').evaluate((element) => {
      const cursor = element.querySelector('.cursor') as HTMLElement | null;
      const lineNumbers = Array.from(element.querySelectorAll<HTMLElement>('.line-numbers'));
      if (!cursor) return -1;
      const top = cursor.getBoundingClientRect().top;
      const match = lineNumbers.find((n) => Math.abs(n.getBoundingClientRect().top - top) < 4);
      return match ? Number(match.textContent) : -1;
    });
  }
}
