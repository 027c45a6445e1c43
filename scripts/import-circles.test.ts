import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importCircles, importGraph, layerViolations, sourceFiles } from './import-graph.js';

const REPO = fileURLToPath(new URL('..', import.meta.url));

/** A throwaway tree of files (path → text). */
function tree(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-imports-'));
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    fs.writeFileSync(path.join(root, name), text);
  }
  return root;
}

/** Every file `from` imports, directly or through others. */
function reachable(graph: ReadonlyMap<string, readonly string[]>, from: string): string[] {
  const seen = new Set<string>();
  const next = [...(graph.get(from) ?? [])];
  for (let file = next.pop(); file !== undefined; file = next.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    next.push(...(graph.get(file) ?? []));
  }
  return [...seen].sort();
}

function circlesIn(root: string): string[][] {
  const graph = importGraph(sourceFiles([root]));
  return importCircles(graph).map((cycle) => cycle.map((file) => path.relative(root, file)));
}

describe('import circles (decision 0054)', () => {
  const roots = ['electron', 'shared', 'renderer'].map((dir) => path.join(REPO, dir));
  const graph = importGraph(sourceFiles(roots));

  it('electron/, shared/ and renderer/ have none, type-only and lazy imports included', () => {
    const circles = importCircles(graph).map((cycle) => cycle.map((file) => path.relative(REPO, file)).join(' -> '));
    expect(circles, 'import circles: move the shared types into a leaf module').toEqual([]);
  });

  it('components/contract.ts reaches none of the parts it describes, only types and small helpers', () => {
    const contract = path.join(REPO, 'electron/agent/components/contract.ts');
    const reached = reachable(graph, contract).map((file) => path.relative(REPO, file));
    const folders = /^electron\/agent\/(receivers|parsers|transforms|transmits|threads|supervisor|runtime|store)\//;
    const classes = /\/(pipeline|batch-committer|parse-worker-pool|transmit-stats|marker-store|built-in|registry)\.ts$/;
    const parts = reached.filter((file) => folders.test(file) || classes.test(file));
    expect(parts, 'contract.ts must declare what it needs as small interfaces').toEqual([]);
  });

  it('pipeline/ imports no specific receiver, parser, transform or transmit (the threads\' roots wire them)', () => {
    const pipeline = path.join(REPO, 'electron/agent/pipeline') + path.sep;
    const specific = /^electron\/agent\/(receivers|parsers|transforms|transmits)\//;
    const offending = [...graph]
      .filter(([file]) => file.startsWith(pipeline))
      .flatMap(([file, imports]) => imports.map((to) => [path.relative(REPO, file), path.relative(REPO, to)] as const))
      .filter(([, to]) => specific.test(to))
      .map(([from, to]) => `${from} -> ${to}`);
    expect(offending, 'declare an interface in pipeline/ and wire the specific part in threads/').toEqual([]);
  });

  it('the agent imports nothing from the API: it throws AgentError, the API maps the kind to HTTP', () => {
    const agent = path.join(REPO, 'electron/agent') + path.sep;
    const api = path.join(REPO, 'electron/api') + path.sep;
    const offending = [...graph]
      .filter(([file]) => file.startsWith(agent))
      .flatMap(([file, imports]) => imports.filter((to) => to.startsWith(api)).map((to) => `${path.relative(REPO, file)} -> ${path.relative(REPO, to)}`));
    expect(offending, 'throw an AgentError (errors/agent-error.ts) and map it in electron/api').toEqual([]);
  });

  it('the agent\'s folders keep their layers (docs/architecture.md, "Layers"), type-only imports included', () => {
    const violations = layerViolations(graph, path.join(REPO, 'electron/agent'));
    expect(violations, 'an import against the layers: move the shared type or helper down').toEqual([]);
  });

  it('names the offending edge of an import against the layers', () => {
    const root = tree({
      'agent/time/clock.ts': "import type { Pipeline } from '../pipeline/pipeline.js';\nexport type Clock = Pipeline;\n",
      'agent/pipeline/pipeline.ts': "import type { Clock } from '../time/clock.js';\nexport interface Pipeline { clock?: Clock }\n",
      'agent/receivers/r.ts': "import type { Pipeline } from '../pipeline/pipeline.js';\nexport const r: Pipeline = {};\n",
      'agent/newfolder/n.ts': "export const n = 1;\n",
      'agent/time/uses-new.ts': "import { n } from '../newfolder/n.js';\nexport const m = n;\n",
    });
    const found = layerViolations(importGraph(sourceFiles([root])), path.join(root, 'agent'));
    expect(found).toEqual([
      'receivers -> pipeline: receivers/r.ts -> pipeline/pipeline.ts',
      'time -> newfolder: time/uses-new.ts -> newfolder/n.ts',
      'time -> pipeline: time/clock.ts -> pipeline/pipeline.ts',
    ]);
  });

  it('names the files of a circle made by a type-only import', () => {
    const root = tree({
      'a.ts': "import { b } from './b.js';\nexport const a = b + 1;\n",
      'b.ts': "import type { A } from './c.js';\nexport const b = 1 as A;\n",
      'c.ts': "import { a } from './a.js';\nexport type A = typeof a;\n",
      'leaf.ts': "import { a } from './a.js';\nexport const leaf = a;\n",
    });
    expect(circlesIn(root)).toEqual([['a.ts', 'b.ts', 'c.ts', 'a.ts']]);
  });

  it('counts lazy import() and export-from, resolves .tsx and index files, and ignores tests and packages', () => {
    const root = tree({
      'view.tsx': "export { load } from './loader.js';\nimport 'zod';\n",
      'loader.ts': "export const load = () => import('./view.js');\n",
      'lib/index.ts': "import { load } from '../loader.js';\nexport const x = load;\n",
      'lib/user.ts': "import { x } from './index.js';\nexport const y = x;\n",
      'lib/user.test.ts': "import { y } from './user.js';\nimport { z } from '../lib';\n",
    });
    expect(circlesIn(root)).toEqual([['loader.ts', 'view.tsx', 'loader.ts']]);
  });

  it('finds nothing in a tree whose imports only go one way', () => {
    const root = tree({
      'types.ts': 'export interface Port { send(): void }\n',
      'impl.ts': "import type { Port } from './types.js';\nexport class Impl implements Port { send() {} }\n",
      'user.ts': "import type { Port } from './types.js';\nimport { Impl } from './impl.js';\nexport const p: Port = new Impl();\n",
    });
    expect(circlesIn(root)).toEqual([]);
  });
});
