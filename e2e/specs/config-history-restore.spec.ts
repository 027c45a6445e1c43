import { ConfigHistory } from '../pages/config-history.js';
import { ConfigPage } from '../pages/config-page.js';
import { ConsoleApp } from '../pages/console-app.js';
import { expect, test } from '../fixtures/console-server.js';

test('History lists who saved each version, diffs an older one and restores it through the normal save; Discard asks first', async ({ page, server }) => {
  // Revision 2 by the shift lead's own token (revision 1 is the demo's, saved by nobody known).
  const api = (method: string, path: string, body?: unknown, token = server.token) =>
    page.request.fetch(`${server.origin}${path}`, { method, headers: { authorization: `Bearer ${token}` }, data: body });
  const lead = await (await api('POST', '/v1/tokens', { name: 'shift-lead', role: 'admin' })).json();
  const demo = await (await api('GET', '/v1/config')).json();
  const renamed = JSON.parse(JSON.stringify(demo.response).replace('"cyc_t":"cycle_time_s"', '"cyc_t":"cycle_s"'));
  expect((await api('POST', '/v1/config', renamed, lead.response.token)).status()).toBe(200);

  const app = new ConsoleApp(page);
  await app.open(server, 'configuration');
  const config = new ConfigPage(page);
  const history = new ConfigHistory(page);
  await expect(config.editorText).toContainText('demo_plant_files');

  // Discard asks first; Cancel keeps the change, confirming takes it away.
  await config.goToText('"cyc_t": "cycle_s"');
  await config.replaceBeforeLineEnd(1, 'cycle_s'.length, 'cycle_seconds');
  await expect(page.getByText('unsaved changes')).toBeVisible();
  await history.discard.click();
  await expect(history.discardDialog).toBeVisible();
  await history.discardDialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(config.line('"cyc_t": "cycle_seconds"')).toBeVisible();
  await history.discard.click();
  await history.discardDialog.getByRole('button', { name: 'Discard changes' }).click();
  await expect(page.getByText('unsaved changes')).toHaveCount(0);
  await expect(config.line('"cyc_t": "cycle_s"')).toBeVisible();

  // The second save, in the console (the bootstrap token).
  await config.goToText('"cyc_t": "cycle_s"');
  await config.replaceBeforeLineEnd(1, 'cycle_s'.length, 'cycle_seconds');
  await expect(config.violations).toHaveCount(0);
  await config.save.click();
  await config.dialogSave().click();
  await expect(app.toast('Configuration saved')).toBeVisible();
  // Dismissed, so that the restore's own toast is the one seen below.
  await app.toast('Configuration saved').getByRole('button', { name: 'Dismiss notification' }).click();
  await expect(app.toast('Configuration saved')).toHaveCount(0);

  await history.open.click();
  await expect(history.versions).toHaveCount(3);
  await expect(history.version(3)).toContainText('(current)');
  await expect(history.version(3)).toContainText('bootstrap');
  await expect(history.version(2)).toContainText('shift-lead');
  await expect(history.version(1)).toContainText('unknown');

  await history.compare(2).click();
  await expect(history.diff).toBeVisible();
  await expect(history.diffOriginalLines.filter({ hasText: '"cyc_t": "cycle_s"' })).toBeVisible();

  // Restore goes through the normal save: its summary, diff and what restarts.
  await history.restore(2).click();
  await expect(history.dialog).toBeHidden();
  await expect(config.changeSummary).toHaveText('Changes transform rename_columns (renames).');
  await expect(config.diffModifiedLines.filter({ hasText: '"cyc_t": "cycle_s"' })).toBeVisible();
  await config.dialogSave().click();
  await expect(app.toast('Configuration saved')).toBeVisible();
  await expect(config.line('"cyc_t": "cycle_s"')).toBeVisible();
  await expect(page.getByText('unsaved changes')).toHaveCount(0);

  // Applied: the agent runs revision 4, which is revision 2 again, secrets kept.
  const saved = await (await api('GET', '/v1/config')).json();
  expect(saved.meta.revision).toBe(4);
  expect(saved.response).toEqual(renamed);
  await history.open.click();
  await expect(history.version(4)).toContainText('(current)');
  await expect(history.version(4)).toContainText('bootstrap');
});

test('an uploaded file goes into the editor unsaved, with a word on its masked secrets; a file that is not JSON is refused', async ({ page, server }) => {
  const app = new ConsoleApp(page);
  await app.open(server, 'configuration');
  const config = new ConfigPage(page);
  const history = new ConfigHistory(page);
  await expect(config.editorText).toContainText('demo_plant_files');

  await history.upload.setInputFiles({ name: 'broken.json', mimeType: 'application/json', buffer: Buffer.from('{"data_receiver": [') });
  await expect(config.notice).toContainText('broken.json is not a JSON configuration');
  await expect(page.getByText('unsaved changes')).toHaveCount(0);

  const other = { data_receiver: [], transforms: [], data_transmit: [{ transmit_name: 'cloud', transmit_type: 'remotedatapost', base_url: 'https://127.0.0.1:1', API_key: '********', API_key_ID: 'x@example.com' }] };
  await history.upload.setInputFiles({ name: 'other-pc.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(other, null, 2)) });
  await expect(config.notice).toContainText('Loaded other-pc.json');
  await expect(config.notice).toContainText('1 masked secret');
  await expect(config.notice).toContainText('type the password or API key again');
  await expect(config.editorText).toContainText('remotedatapost');
  await expect(page.getByText('unsaved changes')).toBeVisible();
});
