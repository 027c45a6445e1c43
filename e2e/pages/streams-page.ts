import type { Locator, Page } from '@playwright/test';

export class StreamsPage {
  readonly table: Locator;
  readonly rows: Locator;
  readonly filter: Locator;
  readonly restream: Locator;

  constructor(readonly page: Page) {
    this.table = page.getByRole('table', { name: 'Streams' });
    this.rows = this.table.locator('tbody tr[data-stream]');
    this.filter = page.getByLabel('Filter streams');
    this.restream = page.getByRole('button', { name: /^Restream/ });
  }

  row(stream: string): Locator {
    return this.table.locator(`tr[data-stream="${stream}"]`);
  }

  select(stream: string): Locator {
    return this.table.getByRole('checkbox', { name: `Select ${stream}` });
  }

  markers(stream: string): Locator {
    return this.row(stream).locator('.marker');
  }
}
