import { _electron as electron, expect, test } from '@playwright/test';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The Electron binary, when `npm run electron:fetch` has installed it (never on offline machines). */
function electronBinary(): string | undefined {
  try {
    const binary = createRequire(import.meta.url)('electron') as unknown;
    return typeof binary === 'string' && fs.existsSync(binary) ? binary : undefined;
  } catch {
    return undefined;
  }
}

const binary = electronBinary();

test('the desktop app opens the console and reaches the agent over IPC', async () => {
  test.skip(!binary, 'No Electron binary on this machine: run "npm run electron:fetch" where the internet is reachable to run this test.');
  const dataDirectory = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-desktop-'));
  const app = await electron.launch({
    executablePath: binary,
    args: [path.join(ROOT, 'dist', 'electron', 'main', 'index.js'), '--no-sandbox'],
    env: { ...process.env, TRIBUTARY_DATA_DIR: dataDirectory },
  });
  try {
    const page = await app.firstWindow();
    await expect(page.locator('[data-app-state="ready"]')).toBeVisible({ timeout: 30_000 });
    await page.getByRole('link', { name: 'Status' }).click();
    await expect(page.getByText('running').first()).toBeVisible();
  } finally {
    await app.close();
    fs.rmSync(dataDirectory, { recursive: true, force: true });
  }
});
