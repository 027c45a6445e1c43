import { ConsoleApp } from '../pages/console-app.js';
import { StatusPage } from '../pages/status-page.js';
import { expect, test } from '../fixtures/console-server.js';

test('an operator opens the console, stops the agent after confirming, and starts it again', async ({ page, server }) => {
  const app = new ConsoleApp(page);
  await app.open(server);
  // The token leaves the address bar as soon as the console has it.
  expect(page.url()).not.toContain('token=');

  const status = new StatusPage(page);
  await expect(status.agentState).toHaveText('running');
  await expect(status.services).toContainText('demo_plant_files');
  // While the agent runs, Start is disabled and does not look like a button that works, in either theme.
  const look = (button: typeof status.start) =>
    button.evaluate((element) => {
      const style = getComputedStyle(element);
      return { border: style.borderStyle, background: style.backgroundColor, cursor: style.cursor };
    });
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await expect(status.start).toBeDisabled();
    const [start, restart] = [await look(status.start), await look(status.restart)];
    expect(start, scheme).toMatchObject({ border: 'dashed', cursor: 'not-allowed' });
    expect(start.background, scheme).not.toBe(restart.background);
  }
  await page.emulateMedia({ colorScheme: 'light' });

  await status.stop.click();
  const confirm = app.dialog('Stop the agent?');
  await expect(confirm).toContainText('no data is read');
  await confirm.getByRole('button', { name: 'Stop agent' }).click();
  await expect(status.agentState).toHaveText('stopped');
  await expect(confirm).toBeHidden();
  await expect(app.toast('Agent stopped: the agent is stopped.')).toBeVisible();

  await status.start.click();
  await expect(status.agentState).toHaveText('running');
  await expect(app.toast('Agent started: the agent is running.')).toBeVisible();

  await status.restart.click();
  await app.dialog('Restart the agent?').getByRole('button', { name: 'Restart agent' }).click();
  await expect(app.toast('Agent restarted: the agent is running.')).toBeVisible();
  await expect(status.loadChart).toBeVisible();
});
