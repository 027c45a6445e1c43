import { ConfigPage } from '../pages/config-page.js';
import { ConsoleApp } from '../pages/console-app.js';
import { expect, test } from '../fixtures/console-server.js';

test('an engineer inserts a localfile receiver template and is shown what to fill in', async ({ page, server }) => {
  const app = new ConsoleApp(page);
  await app.open(server, 'configuration');
  const config = new ConfigPage(page);
  await expect(config.editorText).toContainText('demo_plant_files');

  await config.insertTemplate('localfile').click();
  await expect(config.notice).toContainText('Inserted the localfile receiver "local_files"');
  await expect(config.line('"data_receiver_name": "local_files"')).toBeVisible();
  // The template's prompts are errors until they are filled in. The demo has three receivers (CSV
  // files, the OPC UA plant and the Modbus compressor): the inserted one is the fourth.
  await expect(config.errorViolations.first()).toBeVisible();
  await expect(config.violations.filter({ hasText: 'data_receiver[3]' }).first()).toBeVisible();

  // Transmits have templates too: an MQTT transmit into a Unified Namespace.
  await config.insertTemplate('mqtt transmit').click();
  await expect(config.notice).toContainText('Inserted the mqtt transmit "unified_namespace"');
  await expect(config.line('"topic": "<fill in: enterprise/site/area, e.g. acme/plant1/line1>/{asset}/{stream_type}"')).toBeVisible();

  // Leaving with unsaved changes asks first.
  await app.navLink('Streams').click();
  const leave = app.dialog('Leave without saving?');
  await expect(leave).toBeVisible();
  await leave.getByRole('button', { name: 'Stay on this page' }).click();
  await expect(app.navLink('Configuration')).toHaveAttribute('aria-current', 'page');
});
