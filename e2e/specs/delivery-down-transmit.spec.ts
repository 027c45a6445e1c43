import { expect, test } from '../fixtures/console-server.js';
import { ConsoleApp } from '../pages/console-app.js';
import { StatusPage } from '../pages/status-page.js';
import { StreamsPage } from '../pages/streams-page.js';
import { CLOUD_KEY, CLOUD_KEY_ID, deliveryPlant, saveConfig } from '../servers/delivery-plant.js';
import { startIngestProcess } from '../servers/ingest-process.js';

test.use({ demo: false });

test('a down transmit turns its streams amber on Status, with its reason, and Streams shows what waits', async ({ page, server }) => {
  const ingest = await startIngestProcess(CLOUD_KEY_ID, CLOUD_KEY);
  const plant = deliveryPlant(server, ingest.url);
  try {
    await saveConfig(page.request, server, plant.config);
    plant.drops('press_1.csv', 30);
    plant.drops('oven_1.csv', 20);
    const app = new ConsoleApp(page);
    await app.open(server);
    const status = new StatusPage(page);
    const press = status.flowRow('line/Press_1:cycle');
    const oven = status.flowRow('line/Oven_2:process');
    // Delivered: green, nothing stuck; the age of the data itself is shown beside when it arrived.
    await expect(press.locator('[data-freshness]')).toHaveAttribute('data-freshness', 'fresh', { timeout: 30_000 });
    await expect(press).toHaveAttribute('data-delivery', 'ok');
    await expect(press.getByTestId('data-age')).toContainText(/^data from (just now|\d+ s ago)$/);
    await expect.poll(() => ingest.received(), { timeout: 20_000 }).toBe(30);

    // The upload target goes down; the press keeps producing.
    await ingest.stop();
    plant.drops('press_2.csv', 10);
    await expect(press).toHaveAttribute('data-delivery', 'stuck', { timeout: 30_000 });
    await expect(press.locator('[data-freshness]')).toHaveAttribute('data-freshness', 'stale');
    await expect(status.deliveryProblem('line/Press_1:cycle')).toContainText(/^Not getting out: 10 waiting at cloud: .+/);
    // The oven goes to the local archive only, and is expected hourly (expected_every_seconds): it stays green.
    await expect(oven).toHaveAttribute('data-delivery', 'ok');
    await expect(oven.locator('[data-freshness]')).toHaveAttribute('data-freshness', 'fresh');

    await app.goTo('Streams');
    const streams = new StreamsPage(page);
    await expect(streams.count('Press_1:cycle', 'read')).toHaveText('40');
    await expect(streams.count('Press_1:cycle', 'sent').locator('[data-transmit="cloud"]')).toHaveText('cloud: 30');
    await expect(streams.count('Press_1:cycle', 'waiting').locator('[data-transmit="cloud"]')).toContainText(/^cloud: 10 \(oldest/);
    await expect(streams.count('Press_1:cycle', 'waiting').locator('[data-transmit="archive"]')).toHaveText('archive: 0');
    await expect(streams.count('Oven_2:process', 'sent')).toHaveText('20');
  } finally {
    await ingest.stop();
    plant.cleanUp();
  }
});
