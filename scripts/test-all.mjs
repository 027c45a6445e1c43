#!/usr/bin/env node
// The whole test suite, as CI runs it: build, lint, typecheck, every vitest test (unit and API tests,
// and the integration tests, *.integration.test.ts: real PostgreSQL, MariaDB, Samba and OPC UA
// servers, the Python decoder, the headless server as a process, the small bench), then the console
// end to end in Chromium (Playwright). Ends with one plain line "tests: N passed, N failed".
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const reports = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-reports-'));
const vitestReport = path.join(reports, 'vitest.json');
const playwrightReport = path.join(reports, 'playwright.json');

function step(name, command, args, env = {}) {
  const started = Date.now();
  process.stdout.write(`\n=== ${name}: ${command} ${args.join(' ')}\n`);
  const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env }, shell: process.platform === 'win32' });
  process.stdout.write(`=== ${name}: ${result.status === 0 ? 'ok' : `FAILED (exit ${result.status})`} in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  return result.status === 0;
}

/** A step whose output is kept and printed when it ends, so that two steps can run side by side. */
function quietStep(name, command, args) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], shell: process.platform === 'win32' });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('close', (code) => {
      process.stdout.write(`\n=== ${name}: ${command} ${args.join(' ')}\n${Buffer.concat(output).toString()}`);
      process.stdout.write(`=== ${name}: ${code === 0 ? 'ok' : `FAILED (exit ${code})`} in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
      resolve(code === 0);
    });
  });
}

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
const results = {};
// The build beside lint and typecheck: each is one busy thread, and none needs another's output.
const checks = (async () => [await quietStep('lint', npm, ['run', 'lint', '--silent']), await quietStep('typecheck', npm, ['run', 'typecheck', '--silent'])])();
results.build = await quietStep('build', npm, ['run', 'build', '--silent']);
[results.lint, results.typecheck] = await checks;
// Two files at a time: vitest's default on two cores is one, and most integration files wait on
// servers and timers rather than use the CPU. Each file still runs isolated.
results.unit = step('unit, API and integration tests', npx, ['vitest', 'run', '--maxWorkers=2', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestReport}`]);
results.e2e = results.build
  ? step('end-to-end tests', npx, ['playwright', 'test', '-c', 'e2e/playwright.config.ts', '--reporter=line,json'], { PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightReport })
  : false;

let passed = 0;
let failed = 0;
try {
  const v = JSON.parse(fs.readFileSync(vitestReport, 'utf8'));
  passed += v.numPassedTests;
  failed += v.numFailedTests;
} catch {
  failed += 1;
}
let skipped = 0;
try {
  const p = JSON.parse(fs.readFileSync(playwrightReport, 'utf8'));
  passed += p.stats.expected + (p.stats.flaky ?? 0);
  failed += p.stats.unexpected;
  skipped += p.stats.skipped ?? 0;
  // Say why a test was skipped (e.g. no Electron binary on this machine), not just that it was.
  const visit = (suite) => {
    for (const spec of suite.specs ?? [])
      for (const t of spec.tests ?? [])
        if (t.status === 'skipped') {
          const reason = (t.annotations ?? []).find((a) => a.type === 'skip')?.description ?? 'no reason given';
          process.stdout.write(`skipped: ${spec.title} (${reason})\n`);
        }
    for (const child of suite.suites ?? []) visit(child);
  };
  for (const suite of p.suites ?? []) visit(suite);
} catch {
  if (results.build) failed += 1;
}
for (const [name, ok] of Object.entries(results)) if (!ok && !['unit', 'e2e'].includes(name)) failed += 1;

const broken = Object.entries(results).filter(([, ok]) => !ok).map(([name]) => name);
process.stdout.write(`\nsteps failed: ${broken.length ? broken.join(', ') : 'none'}\n`);
process.stdout.write(`tests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`);
process.exit(broken.length === 0 && failed === 0 && passed > 0 ? 0 : 1);
