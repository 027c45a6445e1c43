import { ConfigPage } from '../pages/config-page.js';
import { ConsoleApp } from '../pages/console-app.js';
import { LogsPage } from '../pages/logs-page.js';
import { expect, test } from '../fixtures/console-server.js';

test('an engineer changes one receiver, sees before saving that only it restarts, and the log confirms the rest kept running', async ({ page, server }) => {
  const app = new ConsoleApp(page);
  await app.open(server);
  await app.goTo('Configuration');

  const config = new ConfigPage(page);
  await expect(config.editorText).toContainText('demo_plant_files');
  // The file receiver's poll_interval 2 → 3: only that receiver's configuration changes.
  await config.retypeValue('"poll_interval": 2,', '2', '3');
  await expect(config.line('"poll_interval": 3,')).toBeVisible();

  await config.save.click();
  await expect(config.deployGroup('Restart (configuration changed)')).toHaveText(['receiver:demo_plant_files']);
  await expect(config.deployGroup('Keep running untouched')).toHaveText(['transmit:archive', 'transform:rename_columns', 'receiver:demo_plant_opcua', 'receiver:demo_plant_modbus']);
  await expect(config.deployGroup('Start')).toHaveCount(0);
  await expect(config.deployGroup('Stop (no longer configured)')).toHaveCount(0);
  await config.dialogSave().click();
  await expect(app.toast('Configuration saved. Services: restarted 1, 4 kept running.')).toBeVisible();

  await app.goTo('Logs');
  const logs = new LogsPage(page);
  await logs.search.fill('Configuration applied');
  await expect(logs.rows.first()).toContainText(
    'Configuration applied: restarted receiver:demo_plant_files; started none; stopped none; kept running transmit:archive, transform:rename_columns, receiver:demo_plant_opcua, receiver:demo_plant_modbus',
  );
});
