import type { Locator, Page } from '@playwright/test';

export class LogsPage {
  readonly view: Locator;
  readonly rows: Locator;
  readonly level: Locator;
  readonly component: Locator;
  readonly search: Locator;
  readonly follow: Locator;
  readonly count: Locator;

  constructor(readonly page: Page) {
    this.view = page.getByRole('log', { name: 'Log lines' });
    this.rows = this.view.locator('.log-row');
    this.level = page.getByLabel('Level', { exact: true });
    this.component = page.getByLabel('Component', { exact: true });
    this.search = page.getByLabel('Search log');
    this.follow = page.getByRole('checkbox', { name: 'Follow' });
    this.count = page.getByTestId('log-count');
  }

  logFile(label: 'Core' | 'Web'): Locator {
    return this.page.getByRole('radio', { name: new RegExp(`^${label}`) });
  }

  rowsOfLevel(level: string): Locator {
    return this.view.locator(`.log-row[data-level="${level}"]`);
  }
}
