import { expect, test } from '../fixtures/console-server.js';
import { ConsoleApp } from '../pages/console-app.js';
import { StatusPage } from '../pages/status-page.js';
import { StreamsPage } from '../pages/streams-page.js';
import { CLOUD_KEY, CLOUD_KEY_ID, deliveryPlant, saveConfig } from '../servers/delivery-plant.js';
import { startIngestProcess } from '../servers/ingest-process.js';

// The page polls while the agent is down: the browser logs the refused requests.
test.use({ demo: false, expectedConsoleErrors: [/ERR_CONNECTION_REFUSED|Failed to load resource|Failed to fetch/] });

test('a restart keeps the counters: records read, sent and the last record survive the agent being killed', async ({ page, server }) => {
  const ingest = await startIngestProcess(CLOUD_KEY_ID, CLOUD_KEY);
  const plant = deliveryPlant(server, ingest.url);
  try {
    await saveConfig(page.request, server, plant.config);
    // Data whose own time stamps are two hours old: "arrived" and "data from" differ.
    plant.drops('press_1.csv', 25, 7200);
    const app = new ConsoleApp(page);
    await app.open(server, 'streams');
    const streams = new StreamsPage(page);
    await expect(streams.count('Press_1:cycle', 'read')).toHaveText('25', { timeout: 30_000 });
    await expect(streams.count('Press_1:cycle', 'sent').locator('[data-transmit="cloud"]')).toHaveText('cloud: 25', { timeout: 20_000 });

    // A pulled plug, then the agent comes back on the same data directory.
    await server.kill();
    await server.restart();
    await app.open(server, 'streams');
    await expect(streams.count('Press_1:cycle', 'read')).toHaveText('25');
    await expect(streams.count('Press_1:cycle', 'sent').locator('[data-transmit="cloud"]')).toHaveText('cloud: 25');
    await expect(streams.count('Press_1:cycle', 'sent').locator('[data-transmit="archive"]')).toHaveText('archive: 25');
    await expect(streams.count('Oven_2:process', 'read')).toHaveText('0');

    await app.goTo('Status');
    const status = new StatusPage(page);
    const press = status.flowRow('line/Press_1:cycle');
    // The last record is still known (not "none yet"), with the age of its data.
    await expect(press.locator('[data-freshness]')).toHaveText(/^(just now|\d+ s ago|\d+ min ago)$/);
    await expect(press.getByTestId('data-age')).toHaveText('data from 2 h ago');
    await expect(status.transmit('cloud')).toContainText('25');
  } finally {
    await ingest.stop();
    plant.cleanUp();
  }
});
