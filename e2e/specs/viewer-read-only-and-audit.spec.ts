import { ConfigPage } from '../pages/config-page.js';
import { ConsoleApp } from '../pages/console-app.js';
import { KpiPage } from '../pages/kpi-page.js';
import { LogsPage } from '../pages/logs-page.js';
import { TokensPage } from '../pages/tokens-page.js';
import { expect, test } from '../fixtures/console-server.js';

test('an admin names a viewer token "Kollege Müller"; the viewer finds Configuration and KPIs read-only; only the admin reads the audit trail', async ({ page, server, browser }) => {
  const app = new ConsoleApp(page);
  await app.open(server);
  await app.goTo('Tokens');
  const tokens = new TokensPage(page);
  // The rule is beside the field, and a name that breaks it says why before anything is sent.
  const rule = page.getByTestId('token-name-rule');
  await expect(rule).toContainText('Up to 64 characters, any letters (also ä, é, ñ), digits, spaces and punctuation');
  await tokens.name.fill('x'.repeat(65));
  await expect(rule).toHaveText('The name is 65 characters long; at most 64 are possible.');
  await expect(tokens.create).toBeDisabled();
  await tokens.name.fill('Kollege Müller');
  await expect(rule).toContainText('Up to 64 characters');
  await tokens.role.selectOption('viewer');
  await tokens.create.click();
  const viewerToken = (await tokens.createdToken.textContent())!.trim();
  await app.dialog(/Token "Kollege Müller"/).getByRole('button', { name: 'Close' }).click();
  await expect(tokens.row('Kollege Müller')).toContainText('viewer');
  // Created in the browser's local time with its zone, not raw UTC.
  await expect(tokens.row('Kollege Müller').locator('time')).toHaveText(/^\d{2}\/\d{2}\/\d{4}, \d{2}:\d{2}:\d{2} [AP]M \S+$/);

  const context = await browser.newContext();
  const viewerPage = await context.newPage();
  const viewer = new ConsoleApp(viewerPage);
  await viewer.open({ ...server, token: viewerToken });
  await viewer.goTo('Configuration');
  const config = new ConfigPage(viewerPage);
  await expect(config.editorText).toContainText('demo_plant_files');
  await expect(viewerPage.getByTestId('read-only-notice')).toContainText('Read-only.');
  await expect(viewerPage.getByTestId('read-only-notice')).toContainText('your token "Kollege Müller" is viewer');
  for (const name of ['Save…', 'Upload…', 'Copy to…', 'Discard changes']) await expect(viewerPage.getByRole('button', { name, exact: true })).toHaveCount(0);
  await expect(viewerPage.getByRole('group', { name: 'Insert template' })).toHaveCount(0);
  await expect(viewerPage.getByRole('button', { name: 'Validate', exact: true })).toBeVisible();
  // Typing changes nothing: the editor is read-only.
  await config.goToText('"poll_interval": 2,');
  await viewerPage.keyboard.press('End');
  await viewerPage.keyboard.type('xyz');
  await expect(config.line('xyz')).toHaveCount(0);
  await expect(viewerPage.getByText('unsaved changes')).toHaveCount(0);

  await viewer.goTo('KPIs');
  const kpis = new KpiPage(viewerPage);
  await expect(viewerPage.getByTestId('read-only-notice')).toContainText('You can read and validate the KPIs');
  await expect(kpis.save).toHaveCount(0);
  await expect(viewerPage.getByRole('button', { name: 'Delete…' })).toHaveCount(0);

  // The audit trail is offered to admins only.
  await viewer.goTo('Logs');
  await expect(new LogsPage(viewerPage).logFile('Core')).toBeVisible();
  await expect(new LogsPage(viewerPage).logFile('Audit')).toHaveCount(0);
  await context.close();

  await app.goTo('Logs');
  const logs = new LogsPage(page);
  await logs.logFile('Audit').click();
  await expect(logs.rowsWith('POST /v1/tokens → 200 ok').first()).toBeVisible();
  await expect(logs.rowsWith('POST /v1/tokens → 200 ok').first()).toContainText('bootstrap');
  await expect(page.getByLabel('Token', { exact: true })).toBeVisible();
});
