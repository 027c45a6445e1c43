import type { Locator, Page } from '@playwright/test';

export class TokenScreen {
  readonly heading: Locator;
  readonly tokenInput: Locator;
  readonly connect: Locator;
  readonly root: Locator;

  constructor(page: Page) {
    this.root = page.locator('[data-app-state="unauthorized"]');
    this.heading = page.getByRole('heading', { level: 1 });
    this.tokenInput = page.getByLabel('Paste the token');
    this.connect = page.getByRole('button', { name: 'Connect' });
  }
}
