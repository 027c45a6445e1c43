/**
 * The import graph of the product's TypeScript (decision 0054): every relative import, export-from,
 * `import type` and lazy `import()` counts, because each is a file a reader must follow. Specifiers
 * are resolved as the build does (`./x.js` is `./x.ts` or `./x.tsx`); packages are not followed.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const SOURCE = /\.tsx?$/;
const SKIPPED = /(\.d\.ts|\.test\.tsx?)$/;

/** The product files under `roots` (tests and declaration files left out: they import what they test). */
export function sourceFiles(roots: readonly string[]): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name === 'dist') continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (SOURCE.test(entry.name) && !SKIPPED.test(entry.name)) found.push(full);
    }
  };
  for (const root of roots) if (fs.existsSync(root)) walk(root);
  return found.sort();
}

/** File → the files it imports (among `files`). */
export function importGraph(files: readonly string[]): Map<string, string[]> {
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true);
    const targets = new Set<string>();
    for (const { fileName } of importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const base = path.join(path.dirname(file), fileName);
      const stem = base.replace(/\.js$/, '');
      const hit = [`${stem}.ts`, `${stem}.tsx`, base, path.join(base, 'index.ts')].find((c) => known.has(c));
      if (hit) targets.add(hit);
    }
    graph.set(file, [...targets]);
  }
  return graph;
}

/**
 * The import circles: one per group of files that reach each other (Tarjan's strongly connected
 * components), named by one concrete cycle through its first file, e.g. [a.ts, b.ts, a.ts].
 */
export function importCircles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  return importCircleGroups(graph).map((group) => cycleThrough(group, graph));
}

/** The groups of files that reach each other through imports (each sorted; in the order of their first file). */
export function importCircleGroups(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  let next = 0;
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const group: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      group.push(w);
    } while (w !== v);
    const selfImport = (graph.get(v) ?? []).includes(v);
    if (group.length > 1 || selfImport) groups.push(group.sort());
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return groups;
}

/** The shortest cycle from the group's first file back to it (breadth first, within the group). */
function cycleThrough(group: readonly string[], graph: ReadonlyMap<string, readonly string[]>): string[] {
  const members = new Set(group);
  const start = group[0];
  const cameFrom = new Map<string, string>();
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    const v = queue[i];
    for (const w of graph.get(v) ?? []) {
      if (!members.has(w)) continue;
      if (w === start) {
        const between: string[] = [];
        for (let u: string | undefined = v; u !== start && u !== undefined; u = cameFrom.get(u)) between.unshift(u);
        return [start, ...between, start];
      }
      if (!cameFrom.has(w)) {
        cameFrom.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start, start];
}

/**
 * The agent's folders in layers, lowest first (docs/architecture.md, "Layers"): a folder may import
 * its own layer's folders only where that pair is listed in SAME_LAYER_EDGES, and lower layers
 * freely; never a higher one. Files directly in electron/agent/ (its index) are the top.
 */
export const AGENT_LAYERS: readonly (readonly string[])[] = [
  ['time', 'errors', 'decoding', 'lifecycle'],
  ['disk'],
  ['logging'],
  ['components'],
  ['store', 'markers', 'workers', 'mqtt', 'parsers', 'transforms', 'kpi', 'status'],
  ['quality'],
  ['flow'],
  ['receivers', 'transmits'],
  ['catalog'],
  ['pipeline', 'inspect'],
  ['threads'],
  ['supervisor', 'config'],
  ['runtime'],
  ['assembly'],
];

/** Pairs within one layer that may import each other one way (from → to). */
export const SAME_LAYER_EDGES: readonly string[] = ['kpi -> store', 'status -> markers', 'inspect -> pipeline'];

/** The agent's folder of a file (its first folder under electron/agent/), '' for its own files. */
export function agentFolder(agentRoot: string, file: string): string | undefined {
  const relative = path.relative(agentRoot, file);
  if (relative.startsWith('..')) return undefined;
  const parts = relative.split(path.sep);
  return parts.length > 1 ? parts[0] : '';
}

/**
 * Every import between two of the agent's folders that goes against the layers, as
 * "from-folder -> to-folder: file -> file" (paths relative to electron/agent).
 */
export function layerViolations(graph: ReadonlyMap<string, readonly string[]>, agentRoot: string): string[] {
  const layerOf = new Map<string, number>();
  AGENT_LAYERS.forEach((folders, layer) => folders.forEach((folder) => layerOf.set(folder, layer)));
  const top = AGENT_LAYERS.length;
  const found: string[] = [];
  for (const [file, targets] of graph) {
    const from = agentFolder(agentRoot, file);
    if (from === undefined) continue;
    for (const target of targets) {
      const to = agentFolder(agentRoot, target);
      if (to === undefined || to === from) continue;
      const a = from === '' ? top : (layerOf.get(from) ?? -1);
      const b = to === '' ? top : (layerOf.get(to) ?? -1);
      const allowed = a > b || (a === b && SAME_LAYER_EDGES.includes(`${from} -> ${to}`));
      if (!allowed || a < 0 || b < 0)
        found.push(`${from || '.'} -> ${to || '.'}: ${path.relative(agentRoot, file)} -> ${path.relative(agentRoot, target)}`);
    }
  }
  return found.sort();
}
