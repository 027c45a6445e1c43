import { ConfigPage } from '../pages/config-page.js';
import { ConsoleApp } from '../pages/console-app.js';
import { expect, test } from '../fixtures/console-server.js';

test('an engineer previews the demo compressor over Modbus TCP: decoded values and the read plan', async ({ page, server }) => {
  const app = new ConsoleApp(page);
  await app.open(server, 'configuration');
  const config = new ConfigPage(page);
  await expect(config.editorText).toContainText('demo_plant_files');

  await config.preview.click();
  await config.previewDialog.getByLabel('Receiver').selectOption('demo_plant_modbus');
  const table = config.previewTable('Compressor_3:process');
  await expect(table).toBeVisible({ timeout: 20_000 });
  await expect(table.getByRole('columnheader')).toContainText(['pressure_bar', 'motor_temperature_C', 'alarm', 'model', 'running_s', 'energy_kWh', 'running']);
  const row = table.getByRole('row').nth(1);
  // The model string, and a pressure of about 7.5 bar (6.1 unloaded): a float read in the right byte order.
  await expect(row).toContainText('GA37');
  await expect(row.getByRole('cell', { name: /^[67]\.\d+$/ }).first()).toBeVisible();
  // The plan: seven values in three requests (the holding registers 0–13 in one).
  await expect(config.previewSection('Compressor_3:process')).toContainText(/modbus:\/\/127\.0\.0\.1:\d+, 3 requests of 3 per poll: unit 1, holding registers 0–13; unit 1, input registers 0–3; unit 1, coil 0/);
});
