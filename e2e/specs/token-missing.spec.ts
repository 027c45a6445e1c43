import { TokenScreen } from '../pages/token-screen.js';
import { ConsoleApp } from '../pages/console-app.js';
import { expect, test } from '../fixtures/console-server.js';

// The browser itself logs the refused request of the wrong token.
test.use({ demo: false, expectedConsoleErrors: [/status of 401/] });

test('without the token the console says where to get it, and accepts a pasted one', async ({ page, server }) => {
  await page.goto(`${server.origin}/`);
  const screen = new TokenScreen(page);
  await expect(screen.root).toBeVisible();
  await expect(screen.heading).toHaveText('Access token needed');

  await screen.tokenInput.fill('not-the-token');
  await screen.connect.click();
  await expect(screen.heading).toHaveText('Access token refused');

  await screen.tokenInput.fill(server.token);
  await screen.connect.click();
  await expect(new ConsoleApp(page).readyRoot).toBeVisible();
});
