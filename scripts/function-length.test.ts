import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sourceFiles } from './import-graph.js';
import { longFunctions, productFiles } from './function-length.js';

const REPO = fileURLToPath(new URL('..', import.meta.url));
/** No product function longer (issue 51 point 4); ESLint warns from 100 (eslint.config.js). */
const MAX_LINES = 150;

describe('function length (issue 51)', () => {
  it(`finds no product function over ${MAX_LINES} lines in electron/, shared/ and renderer/`, () => {
    const files = productFiles(sourceFiles(['electron', 'shared', 'renderer'].map((dir) => path.join(REPO, dir))));
    expect(files.length).toBeGreaterThan(300);
    const long = files.flatMap((file) => longFunctions(file, MAX_LINES));
    expect(long.map((f) => `${f.file}:${f.line} ${f.name} has ${f.lines} lines`)).toEqual([]);
  });

  it('counts code lines of functions, methods, arrows and components, not blank or comment lines', () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-length-')), 'x.tsx');
    const body = (n: number) => Array.from({ length: n }, (_, i) => `  const v${i} = ${i};\n\n  // a comment\n`).join('');
    fs.writeFileSync(file, [
      `export function short() {\n${body(5)}}\n`,
      `export function long() {\n  /**\n   * doc\n   */\n${body(8)}}\n`,
      `class C {\n  method() {\n${body(9)}  }\n}\n`,
      `export const Component = () => {\n${body(7)}  return <div />;\n};\n`,
    ].join('\n'));
    const found = longFunctions(file, 8).map((f) => [f.name, f.lines]);
    // long: its braces + 8 statements; method: 9 + 2; Component: 7 + return + 2 braces.
    expect(found).toEqual([['long', 10], ['method', 11], ['Component', 10]]);
  });
});
