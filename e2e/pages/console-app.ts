import { expect, type Locator, type Page } from '@playwright/test';
import type { ConsoleServer } from '../fixtures/console-server.js';

export type PageName = 'Status' | 'Configuration' | 'Streams' | 'Logs' | 'KPIs';

/** The shell: opening the console, the ready signal, the main navigation, toasts, the connection banner. */
export class ConsoleApp {
  readonly root: Locator;
  readonly readyRoot: Locator;
  readonly headerAgentState: Locator;
  readonly connectionBanner: Locator;
  readonly skipLink: Locator;
  readonly main: Locator;

  constructor(readonly page: Page) {
    this.root = page.locator('[data-app-state]').first();
    this.readyRoot = page.locator('[data-app-state="ready"]');
    this.headerAgentState = page.getByLabel('Agent state in header');
    this.connectionBanner = page.getByTestId('connection-banner');
    this.skipLink = page.getByRole('link', { name: 'Skip to content' });
    this.main = page.locator('main#main-content');
  }

  navLink(name: PageName): Locator {
    return this.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true });
  }

  /** Opens the link the server printed (token included), optionally at a page, and waits for data. */
  async open(server: ConsoleServer, hashPage?: string): Promise<void> {
    await this.page.goto(`${server.origin}/?token=${encodeURIComponent(server.token)}${hashPage ? `#/${hashPage}` : ''}`);
    await expect(this.readyRoot).toBeVisible();
  }

  async goTo(name: PageName): Promise<void> {
    await this.navLink(name).click();
    await expect(this.navLink(name)).toHaveAttribute('aria-current', 'page');
  }

  dialog(name: string | RegExp): Locator {
    return this.page.getByRole('dialog', { name });
  }

  /** A toast (the outcome of an action) containing `text`. */
  toast(text: string | RegExp): Locator {
    return this.page.getByRole('region', { name: 'Notifications' }).locator('.toast', { hasText: text });
  }
}
