import type { Locator, Page } from '@playwright/test';

/** The Configuration page's "Copy to…" dialog: the choice, then one section per target agent. */
export class CopyDialog {
  readonly dialog: Locator;
  readonly open: Locator;
  readonly showChanges: Locator;

  constructor(readonly page: Page) {
    this.dialog = page.getByRole('dialog', { name: /^Copy from .* to other agents$/ });
    this.open = page.getByRole('button', { name: 'Copy to…' });
    this.showChanges = this.dialog.getByRole('button', { name: 'Show the changes' });
  }

  /** A checkbox of the choice: a receiver, a transmit or a target agent. */
  choice(group: 'Receivers' | 'Transmits' | 'To agents', name: string): Locator {
    return this.dialog.getByRole('group', { name: group }).getByRole('checkbox', { name, exact: true });
  }

  target(label: string): Locator {
    return this.dialog.getByRole('region', { name: `Copy to ${label}` });
  }

  summary(label: string): Locator {
    return this.target(label).getByTestId('copy-summary');
  }

  /** The lines of the diff's right side (what will be saved) that Monaco shows. */
  modifiedLines(label: string): Locator {
    return this.target(label).locator('.editor.modified .view-line');
  }

  check(label: string): Locator {
    return this.target(label).getByRole('button', { name: `Check on ${label}` });
  }

  save(label: string): Locator {
    return this.target(label).getByRole('button', { name: `Save to ${label}` });
  }

  /** The violations the target's own validation reported. */
  problems(label: string): Locator {
    return this.target(label).getByRole('list', { name: `Problems found by ${label}` }).getByRole('listitem');
  }

  /**
   * Replaces `text` in the diff's right side with `replacement`, found with the editor's own search
   * (Ctrl+F), which brings it into view and selects it: Monaco renders only the lines on screen.
   */
  async replaceText(label: string, text: string, replacement: string): Promise<void> {
    await this.modifiedLines(label).first().click();
    await this.page.keyboard.press('Control+f');
    await this.page.keyboard.type(text);
    await this.page.keyboard.press('Enter');
    await this.page.keyboard.press('Escape');
    await this.page.keyboard.insertText(replacement);
  }
}
