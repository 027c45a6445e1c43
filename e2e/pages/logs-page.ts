import type { Locator, Page } from '@playwright/test';

export class LogsPage {
  readonly view: Locator;
  readonly rows: Locator;
  readonly level: Locator;
  readonly component: Locator;
  readonly search: Locator;
  readonly follow: Locator;
  readonly count: Locator;
  readonly jumpToNewest: Locator;
  readonly jumpToTime: Locator;
  readonly go: Locator;
  readonly loadOlder: Locator;
  readonly backToNewest: Locator;

  constructor(readonly page: Page) {
    this.view = page.getByRole('log', { name: 'Log lines' });
    this.rows = this.view.locator('.log-row');
    this.level = page.getByLabel('Level', { exact: true });
    this.component = page.getByLabel('Component', { exact: true });
    this.search = page.getByLabel('Search log');
    this.follow = page.getByRole('checkbox', { name: 'Follow' });
    this.count = page.getByTestId('log-count');
    this.jumpToNewest = page.getByRole('button', { name: /Newest line/ });
    this.jumpToTime = page.getByLabel('Jump to time');
    this.go = page.getByRole('button', { name: 'Go', exact: true });
    this.loadOlder = page.getByRole('button', { name: /older lines/ });
    this.backToNewest = page.getByRole('button', { name: 'Back to newest' });
  }

  logFile(label: 'Core' | 'Web' | 'Audit'): Locator {
    return this.page.getByRole('radio', { name: new RegExp(`^${label}`) });
  }

  rowsWith(text: string): Locator {
    return this.rows.filter({ hasText: text });
  }

  rowsOfLevel(level: string): Locator {
    return this.view.locator(`.log-row[data-level="${level}"]`);
  }

  /** How the log box and the page are scrolled (the box scrolls; the page must not). */
  scroll(): Promise<{ top: number; height: number; client: number; pageHeight: number; windowHeight: number }> {
    return this.view.evaluate((box) => ({
      top: box.scrollTop,
      height: box.scrollHeight,
      client: box.clientHeight,
      pageHeight: document.documentElement.scrollHeight,
      windowHeight: window.innerHeight,
    }));
  }

  /** Scrolls the log box up by `pixels`, as the mouse wheel would. */
  async scrollUp(pixels: number): Promise<void> {
    await this.view.hover();
    await this.page.mouse.wheel(0, -pixels);
  }
}
