import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * Tests that spawn the real server (CLI, kill -9) or worker threads run the compiled files in dist/:
 * compile the Node side once before the suite (incrementally: seconds when little changed) so they
 * always run the current source. Type errors do not stop the tests (tsc still emits; `npm run
 * typecheck` is the step that fails on them).
 */
export default function setup(): void {
  // For focused runs of tests that need no compiled files (e.g. while dist/ is being rebuilt elsewhere).
  if (process.env.TRIBUTARY_TEST_NO_BUILD === '1') return;
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const result = spawnSync(process.execPath, ['scripts/build-node.mjs', '--product-only'], { cwd: root, encoding: 'utf8' });
  if (result.status !== 0 && !/error TS\d+/.test(result.stdout)) throw new Error(`Compiling the Node side failed:\n${result.stdout}${result.stderr}`);
  if (result.status !== 0) process.stderr.write(`tsc reported type errors (tests run on the emitted code; npm run typecheck fails on them):\n${result.stdout}`);
}
