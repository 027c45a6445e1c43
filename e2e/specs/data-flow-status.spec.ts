import { ConsoleApp } from '../pages/console-app.js';
import { StatusPage } from '../pages/status-page.js';
import { expect, test } from '../fixtures/console-server.js';

test('the Status page shows every demo stream arriving: a last record seconds old and a sparkline of the last hour', async ({ page, server }) => {
  const app = new ConsoleApp(page);
  await app.open(server);
  const status = new StatusPage(page);
  // Two CSV streams, two OPC UA machines and the Modbus compressor.
  await expect(status.flowRows).toHaveCount(5);
  for (const row of await status.flowRows.all()) {
    const age = row.locator('[data-freshness]');
    // "just now" or "N s ago" with N under 10, and green.
    await expect(age).toHaveText(/^(just now|[0-9] s ago)$/, { timeout: 30_000 });
    await expect(age).toHaveAttribute('data-freshness', 'fresh');
    // The sparkline is drawn, and the last hour has minutes with records in it.
    await expect(row.getByTestId('flow-sparkline')).toHaveAttribute('data-points', /^[1-9]\d*$/);
    await expect(row.locator('td.sparkline-cell')).toHaveAttribute('data-active-minutes', /^[1-9]\d*$/, { timeout: 30_000 });
    await expect(row.locator('td.numeric')).not.toHaveText('0', { timeout: 30_000 });
  }
  // Each transmit: its backlog chart and the drain estimate.
  await expect(status.backlogChart('archive')).toBeVisible();
  await expect(status.transmit('archive')).toContainText(/Drains in|Backlog.*none/);
});
