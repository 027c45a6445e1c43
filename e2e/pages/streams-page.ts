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

  /** The bar of the file a stream is reading now. */
  reading(stream: string): Locator {
    return this.row(stream).getByTestId('file-reading');
  }

  /** A stream's Read, Sent or Waiting cell (Sent and Waiting: one line per transmit). */
  count(stream: string, column: 'read' | 'sent' | 'waiting'): Locator {
    return this.row(stream).locator(`td[data-column="${column}"]`);
  }

  markers(stream: string): Locator {
    return this.row(stream).locator('.marker');
  }
}
