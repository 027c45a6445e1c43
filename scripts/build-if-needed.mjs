#!/usr/bin/env node
// `npm run serve` builds first, but only when a source changed since the last build, and quietly:
// its stdout must stay the server's one console line.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const stamp = path.join(root, 'dist', '.build-stamp');

function newest(entry) {
  const full = path.join(root, entry);
  if (!fs.existsSync(full)) return 0;
  const stat = fs.statSync(full);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs;
  for (const child of fs.readdirSync(full)) if (child !== 'node_modules') latest = Math.max(latest, newest(path.join(entry, child)));
  return latest;
}

const sources = ['electron', 'shared', 'renderer', 'package.json', 'package-lock.json', 'tsconfig.json'];
const built = fs.existsSync(stamp) ? fs.statSync(stamp).mtimeMs : 0;
if (Math.max(...sources.map(newest)) > built || !fs.existsSync(path.join(root, 'dist', 'renderer', 'index.html'))) {
  process.stderr.write('Building Tributary (first start, or sources changed) …\n');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  // Build output goes to stderr: stdout carries only the console line.
  const result = spawnSync(npm, ['run', 'build', '--silent'], { cwd: root, stdio: ['ignore', process.stderr, 'inherit'], shell: process.platform === 'win32' });
  if (result.status !== 0) process.exit(result.status ?? 1);
  fs.writeFileSync(stamp, new Date().toISOString());
}
