import { ConsoleApp } from '../pages/console-app.js';
import { StreamsPage } from '../pages/streams-page.js';
import { expect, test } from '../fixtures/console-server.js';
import { dropFileWithBadLine } from '../servers/file-drops.js';

test('an operator sees the demo streams with their markers and restreams one', async ({ page, server }) => {
  dropFileWithBadLine(server);
  const app = new ConsoleApp(page);
  await app.open(server);
  await app.goTo('Streams');

  const streams = new StreamsPage(page);
  // Two CSV streams, two OPC UA machines and the Modbus compressor.
  await expect(streams.rows).toHaveCount(5);
  await expect(streams.row('Press_1:cycle')).toContainText('demo_plant_files');
  // The demo runs cleanly; the glitchy file's bad line shows up as a warning on its stream.
  await expect(streams.markers('Press_1:cycle').first()).toContainText('warning', { timeout: 20_000 });
  await expect(streams.row('Oven_2:process')).toBeVisible();

  await streams.filter.fill('oven');
  await expect(streams.rows).toHaveCount(1);
  await streams.filter.fill('');

  await expect(streams.restream).toBeDisabled();
  await streams.select('Press_1:cycle').check();
  await streams.restream.click();
  const confirm = app.dialog('Send these streams again?');
  await expect(confirm).toContainText('demo_plant_files: Press_1:cycle');
  await confirm.getByRole('button', { name: 'Restream' }).click();
  // The outcome said plainly: accepted, and being read again (not "complete").
  await expect(app.toast('Restream accepted for 1 stream (demo_plant_files: Press_1:cycle): their data is being read again from the start and sent again.')).toBeVisible();
  await expect(confirm).toBeHidden();
});
