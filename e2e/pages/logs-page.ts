import type { Locator, Page } from '@playwright/test';
import { en, type Catalog } from '../../renderer/src/i18n/messages/en.js';

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

  /** `texts`: the console's language (English unless given). */
  constructor(
    readonly page: Page,
    texts: Catalog = en,
  ) {
    this.view = page.getByRole('log', { name: texts.logView.lines });
    this.rows = this.view.locator('.log-row');
    this.level = page.getByLabel(texts.logs.level, { exact: true });
    this.component = page.getByLabel(texts.logs.component, { exact: true });
    this.search = page.getByLabel(texts.logs.searchLabel);
    this.follow = page.getByRole('checkbox', { name: texts.logs.follow });
    this.count = page.getByTestId('log-count');
    this.jumpToNewest = page.getByRole('button', { name: texts.logView.newest });
    this.jumpToTime = page.getByLabel(texts.logs.jump);
    this.go = page.getByRole('button', { name: texts.logs.go, exact: true });
    this.loadOlder = page.getByRole('button', { name: texts.logs.loadOlder });
    this.backToNewest = page.getByRole('button', { name: texts.logs.backToNewest });
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
