#!/usr/bin/env node
// `npm run build:node`: the Node side (electron/, shared/) compiled with tsc into dist/. Incremental
// (an unchanged tree builds in seconds: the test runs build first), and pruned: a compiled file
// whose source was moved or deleted must not live on in dist/ (and so in the installer).
// Test-only code (electron/testing, shared/testing, *.test.ts) is not part of it: see
// electron/tsconfig.build.json. The console (dist/renderer) is built by Vite and left alone here.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist');
const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const projects = { product: 'electron/tsconfig.build.json', desktop: 'electron/tsconfig.main.build.json' };

/** Compiles the product, and the desktop shell unless `--product-only`; exits on a compile error. */
export function buildNode({ productOnly = false } = {}) {
  for (const [name, project] of Object.entries(projects)) {
    if (productOnly && name !== 'product') continue;
    const info = path.join(dist, '.tsbuildinfo', `${name}.json`);
    const result = spawnSync(process.execPath, [tsc, '-p', project, '--incremental', '--tsBuildInfoFile', info], { cwd: root, encoding: 'utf8' });
    // Exit 2: type errors, output emitted anyway (npm run typecheck is the step that fails on them).
    if (result.status !== 0 && result.status !== 2) return { ok: false, output: `${result.stdout}${result.stderr}` };
    if (result.status === 2) return { ok: true, output: `${result.stdout}${result.stderr}` };
  }
  prune();
  return { ok: true, output: '' };
}

/** Compiled test-only code: the same patterns that electron/tsconfig.build.json excludes. */
const TEST_ONLY = /(^|[\\/])testing[\\/]|\.test\.(c|m)?js(\.map)?$/;

/** Removes compiled files (and emptied folders) whose source no longer exists, or is test-only. */
function prune(dir = dist) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    const relative = path.relative(dist, full);
    if (relative === 'renderer' || relative === '.tsbuildinfo' || relative === '.build-stamp') continue;
    if (entry.isDirectory()) {
      prune(full);
      if (fs.readdirSync(full).length === 0) fs.rmdirSync(full);
      continue;
    }
    const base = path.join(root, relative).replace(/(\.d)?\.(c|m)?js(\.map)?$/, '');
    const hasSource = ['.ts', '.cts', '.mts', '.tsx'].some((ext) => fs.existsSync(base + ext));
    // Test-only sources are never built (tsconfig.build.json): what an older build left of them goes too.
    if (!hasSource || TEST_ONLY.test(relative)) fs.rmSync(full);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { ok, output } = buildNode({ productOnly: process.argv.includes('--product-only') });
  if (output) process.stdout.write(output);
  process.exit(ok && !output ? 0 : 1);
}
