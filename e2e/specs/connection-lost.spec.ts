import { ConsoleApp } from '../pages/console-app.js';
import { StatusPage } from '../pages/status-page.js';
import { expect, test } from '../fixtures/console-server.js';

// The browser logs the refused polls while the server is down.
test.use({ expectedConsoleErrors: [/ERR_CONNECTION_REFUSED|Failed to load resource|Failed to fetch/] });
// Two server starts (each with the demo's OPC UA plant) and a shutdown.
test.setTimeout(120_000);

test('the server dies: every page says so within 10 s, greys what it shows, and recovers by itself', async ({ page, server }) => {
  const app = new ConsoleApp(page);
  await app.open(server);
  const status = new StatusPage(page);
  await expect(status.agentState).toHaveText('running');

  await server.kill();
  await expect(app.connectionBanner).toBeVisible({ timeout: 10_000 });
  await expect(app.connectionBanner).toContainText('The agent does not answer');
  await expect(app.connectionBanner).toContainText(/last updated .* ago/);
  await expect(app.headerAgentState).toContainText('unreachable');
  // What is still shown is marked as old, not passed off as current.
  await expect(app.root).toHaveAttribute('data-app-state', 'stale');
  // In plain words, not the browser's "Failed to fetch"; and an action that could only fail is held back.
  await expect(app.connectionBanner).toContainText('No answer from the agent');
  await expect(app.connectionBanner).not.toContainText('Failed to fetch');
  await expect(status.restart).toBeDisabled();
  await expect(status.restart).toHaveAttribute('title', /does not answer right now/);

  // Every page, not only Status.
  await app.goTo('Streams');
  await expect(app.connectionBanner).toBeVisible();
  await app.goTo('Logs');
  await expect(app.connectionBanner).toBeVisible();

  await server.restart();
  await expect(app.connectionBanner).toBeHidden({ timeout: 15_000 });
  await expect(app.readyRoot).toBeVisible();
  await expect(app.headerAgentState).toContainText('running');
  await app.goTo('Status');
  await expect(status.restart).toBeEnabled();
});
