import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** What the before-release check looks for in dist/ (tests, test helpers, fixtures, test servers). */
const TEST_ONLY = /(\.test\.[cm]?[jt]s$|test-support|fixture|(^|\/)testing\/)/;
const TEST_LIBRARIES = /\bfrom\s+['"](vitest|fast-check|@playwright\/test|@axe-core\/playwright)['"]|import\(\s*['"]vitest['"]\s*\)/;

/**
 * The source files a tsc project compiles (what lands in dist/), relative to the repository: its own
 * files and every file of ours they import (followed by their relative import specifiers).
 */
function programFiles(project: string): string[] {
  const parsed = ts.getParsedCommandLineOfConfigFile(path.join(ROOT, project), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => { throw new Error(String(d.messageText)); } });
  if (!parsed) throw new Error(`cannot read ${project}`);
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file) || !fs.existsSync(file)) return;
    seen.add(file);
    const text = fs.readFileSync(file, 'utf8');
    for (const match of text.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)) {
      const target = path.resolve(path.dirname(file), match[1]!);
      const base = target.replace(/\.(c|m)?js$/, '');
      visit([`${base}.ts`, `${base}.cts`, `${base}.mts`, `${base}.tsx`, target].find((candidate) => fs.existsSync(candidate)) ?? target);
    }
  };
  parsed.fileNames.forEach(visit);
  return [...seen].map((file) => path.relative(ROOT, file).split(path.sep).join('/'));
}

describe('the product build', () => {
  const projects = ['electron/tsconfig.build.json', 'electron/tsconfig.main.build.json'];

  it.each(projects)('%s compiles no test, test helper, fixture or test server', (project) => {
    const files = programFiles(project);
    expect(files.length).toBeGreaterThan(10);
    expect(files.filter((file) => TEST_ONLY.test(file))).toEqual([]);
  });

  it.each(projects)('%s compiles nothing that imports a test library', (project) => {
    const offenders = programFiles(project).filter((file) => TEST_LIBRARIES.test(fs.readFileSync(path.join(ROOT, file), 'utf8')));
    expect(offenders).toEqual([]);
  });

  it('still has the test-only code it leaves out (the patterns above are not vacuous)', () => {
    const all = programFiles('electron/tsconfig.json');
    expect(all.filter((file) => TEST_ONLY.test(file)).length).toBeGreaterThan(20);
    expect(all.some((file) => file.startsWith('electron/testing/opcua/'))).toBe(true);
  });

  it('the installer takes dist/ without tests, testing folders and fixtures', () => {
    const builder = fs.readFileSync(path.join(ROOT, 'electron-builder.yml'), 'utf8');
    for (const exclusion of ['!dist/**/*.test.js', '!dist/**/testing/**', '!dist/**/*fixture*']) expect(builder).toContain(`"${exclusion}"`);
  });
});
