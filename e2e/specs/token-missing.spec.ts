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

test('"Remember on this PC" keeps the token for a new tab, with the trade-off said; without it a new tab asks', async ({ page, server, context }) => {
  await page.goto(`${server.origin}/`);
  const screen = new TokenScreen(page);
  await expect(page.getByTestId('remember-trade-off')).toContainText('anyone who uses this browser profile');
  await screen.tokenInput.fill(server.token);
  await page.getByLabel('Remember on this PC').check();
  await screen.connect.click();
  await expect(new ConsoleApp(page).readyRoot).toBeVisible();

  // A new tab has no session storage of its own: only the remembered token can let it in.
  const second = await context.newPage();
  await second.goto(`${server.origin}/`);
  await expect(new ConsoleApp(second).readyRoot).toBeVisible();
  await second.close();

  // Taking it back: enter the token once more without the box, and a new tab asks again.
  await page.evaluate(() => sessionStorage.clear());
  await page.evaluate(() => localStorage.setItem('tributary.token', 'stale'));
  await page.reload();
  await expect(screen.heading).toHaveText('Access token refused');
  await screen.tokenInput.fill(server.token);
  await screen.connect.click();
  await expect(new ConsoleApp(page).readyRoot).toBeVisible();
  const third = await context.newPage();
  await third.goto(`${server.origin}/`);
  await expect(new TokenScreen(third).heading).toHaveText('Access token needed');
  await third.close();
});
