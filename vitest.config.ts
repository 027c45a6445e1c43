import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // The agent core and the API must run without Electron: any import of it fails the tests.
    alias: { electron: fileURLToPath(new URL('./electron/testing/electron-forbidden.ts', import.meta.url)) },
  },
  test: {
    include: ['shared/**/*.test.ts', 'electron/**/*.test.ts', 'renderer/**/*.test.ts', 'scripts/**/*.test.ts', 'bench/**/*.test.ts'],
    exclude: ['**/node_modules/**', 'dist/**', 'e2e/**'],
    globalSetup: ['electron/testing/build-node.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
