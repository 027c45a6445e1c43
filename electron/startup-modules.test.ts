import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * What an agent loads before it knows its configuration. Each package below costs megabytes of
 * memory in every process (or thread) that loads it (docs/performance.md, Memory of the running
 * agent), so it is loaded only when something needs it: a receiver of its protocol starts, a
 * source of its kind is previewed or checked, /metrics is scraped. These tests follow the static
 * imports of the built entry points (dist/, built by the test setup); dynamic `import()` is where
 * loading is deferred and is not followed.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const LAZY_PACKAGES = ['mssql', 'mysql2', 'pg', 'js-md4', 'prom-client', 'node-opcua', 'mqtt', 'systeminformation'];

/** Packages (and own modules) reached from `entry` by static imports and top-level requires. */
function staticImports(entry: string): { packages: Set<string>; modules: Set<string> } {
  const packages = new Set<string>();
  const seen = new Set<string>();
  const pending = [path.join(ROOT, entry)];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const source = fs.readFileSync(file, 'utf8');
    const specifiers = [
      ...[...source.matchAll(/^\s*(?:import|export)\b[^;]*?\bfrom\s*['"]([^'"]+)['"]/gms)].map((m) => m[1]!),
      ...[...source.matchAll(/^import\s*['"]([^'"]+)['"]/gm)].map((m) => m[1]!),
      ...[...source.matchAll(/^const\s+[^=]+=\s*require\(['"]([^'"]+)['"]\)/gm)].map((m) => m[1]!),
    ];
    for (const specifier of specifiers) {
      if (specifier.startsWith('.')) pending.push(path.resolve(path.dirname(file), specifier));
      else if (!specifier.startsWith('node:')) packages.add(specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]!);
    }
  }
  return { packages, modules: new Set([...seen].map((file) => path.relative(ROOT, file))) };
}

describe('modules loaded at start', () => {
  it('the headless agent loads no protocol library, SMB, SQL driver or metrics library until one is used', () => {
    const loaded = staticImports('dist/electron/serve.js').packages;
    expect(loaded).toContain('better-sqlite3'); // the walk reaches the agent's core
    for (const name of LAZY_PACKAGES) expect(loaded, name).not.toContain(name);
  });

  it('a parse thread loads none of them either', () => {
    const loaded = staticImports('dist/electron/agent/threads/parse-worker.js').packages;
    expect(loaded).toContain('better-sqlite3');
    for (const name of LAZY_PACKAGES) expect(loaded, name).not.toContain(name);
  });

  // A parse thread and the encode thread start again at each drop after a minute without work
  // (docs/performance.md, Start of a drop): they take validated configuration and load no schema.
  it.each([
    ['a parse thread', 'dist/electron/agent/threads/parse-worker.js'],
    ['the encode thread', 'dist/electron/agent/threads/encode-worker.js'],
  ])('%s starts without zod, the schemas and the document readers', (_, entry) => {
    const { packages, modules } = staticImports(entry);
    expect(packages).toContain('bson');
    for (const name of ['zod', 'fflate', 'saxes', '@streamparser/json', 'iconv-lite']) expect(packages, name).not.toContain(name);
    for (const schema of ['schema.js', 'transform-schema.js', 'message-schema.js'])
      expect(modules).not.toContain(path.join('dist', 'shared', 'config', schema));
  });
});
