import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * Tests that spawn the real server (CLI, kill -9) run dist/electron/serve.js: compile the Node side
 * once before the suite so they always run the current source.
 */
export default function setup(): void {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const tsc = fileURLToPath(new URL('../../node_modules/typescript/bin/tsc', import.meta.url));
  execFileSync(process.execPath, [tsc, '-p', 'electron/tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
}
