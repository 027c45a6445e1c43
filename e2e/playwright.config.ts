import { defineConfig } from '@playwright/test';

/**
 * E2E against the headless server. Build first (npm run build); each test starts its own server on
 * a fresh data directory and a free port (see fixtures/console-server.ts).
 */
export default defineConfig({
  testDir: './specs',
  fullyParallel: true,
  workers: 2,
  retries: 0,
  reporter: 'line',
  timeout: 45_000,
  expect: { timeout: 10_000 },
  use: {
    viewport: { width: 1280, height: 800 },
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: ['--no-sandbox', '--headless=new', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
    },
  },
});
