import type { Locator, Page } from '@playwright/test';

/** The History panel of the configuration editor, Download/Upload and the Discard question. */
export class ConfigHistory {
  readonly open: Locator;
  readonly dialog: Locator;
  readonly versions: Locator;
  readonly diff: Locator;
  readonly diffOriginalLines: Locator;
  readonly discard: Locator;
  readonly discardDialog: Locator;
  readonly upload: Locator;

  constructor(readonly page: Page) {
    this.open = page.getByRole('button', { name: 'History…' });
    this.dialog = page.getByRole('dialog', { name: 'Configuration history' });
    this.versions = this.dialog.getByRole('table', { name: 'Saved versions' }).locator('tbody tr');
    this.diff = page.getByTestId('history-diff').locator('.monaco-diff-editor');
    this.diffOriginalLines = page.getByTestId('history-diff').locator('.editor.original .view-line');
    this.discard = page.getByRole('button', { name: 'Discard changes' });
    this.discardDialog = page.getByRole('dialog', { name: 'Discard your changes?' });
    this.upload = page.getByLabel('Upload configuration file');
  }

  /** The row of one revision. */
  version(revision: number): Locator {
    return this.page.getByTestId(`version-${revision}`);
  }

  compare(revision: number): Locator {
    return this.version(revision).getByRole('button', { name: 'Compare with current' });
  }

  restore(revision: number): Locator {
    return this.dialog.getByRole('button', { name: `Restore revision ${revision}…` });
  }
}
