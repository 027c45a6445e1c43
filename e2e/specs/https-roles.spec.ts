import { ConsoleApp } from '../pages/console-app.js';
import { StatusPage } from '../pages/status-page.js';
import { TokensPage } from '../pages/tokens-page.js';
import { expect, test } from '../fixtures/console-server.js';

// The console over HTTPS with the agent's self-signed certificate (accepted by the test, as a user
// would after comparing the fingerprint the server printed).
test.use({ serveArgs: ['--tls'], ignoreHTTPSErrors: true, demo: false });

test('an admin over HTTPS creates a viewer token shown once; the viewer sees what it may not do; revoking shuts it out', async ({ page, server, browser }) => {
  expect(server.origin).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
  expect(server.fingerprint).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
  const app = new ConsoleApp(page);
  await app.open(server);
  await expect(app.sessionToken).toContainText('bootstrap');
  await expect(app.sessionToken).toContainText('admin');
  await expect(app.sessionSecurity).toHaveText('encrypted (HTTPS)');

  await app.goTo('Tokens');
  const tokens = new TokensPage(page);
  await tokens.name.fill('shift-b');
  await tokens.role.selectOption('viewer');
  await tokens.create.click();
  await expect(tokens.createdToken).toHaveText(/^\S{40,}$/);
  const viewerToken = (await tokens.createdToken.textContent())!.trim();
  await app.dialog(/Token "shift-b"/).getByRole('button', { name: 'Close' }).click();
  await expect(tokens.row('shift-b')).toContainText('viewer');
  // Shown once: the list never holds it.
  await expect(tokens.table).not.toContainText(viewerToken);

  // The viewer, in a browser of its own.
  const context = await browser.newContext({ ignoreHTTPSErrors: true });
  const viewerPage = await context.newPage();
  const viewer = new ConsoleApp(viewerPage);
  await viewer.open({ ...server, token: viewerToken });
  await expect(viewer.sessionToken).toContainText('shift-b');
  await expect(viewer.sessionToken).toContainText('viewer');
  await expect(viewer.navLink('Tokens')).toHaveCount(0);
  const status = new StatusPage(viewerPage);
  await expect(status.stop).toBeDisabled();
  await expect(status.stop).toHaveAttribute('title', /operator or admin/);
  await expect(status.restart).toBeDisabled();

  // Revoked: the viewer's next request is refused.
  await tokens.revoke('shift-b').click();
  await app.dialog('Revoke "shift-b"?').getByRole('button', { name: 'Revoke' }).click();
  await expect(tokens.row('shift-b')).toHaveCount(0);
  const refused = await viewerPage.request.get(`${server.origin}/v1/status`, { headers: { authorization: `Bearer ${viewerToken}` } });
  expect(refused.status()).toBe(401);
  await context.close();
});
