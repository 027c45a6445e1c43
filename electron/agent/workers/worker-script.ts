import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Path of a compiled worker script that sits next to `moduleUrl`. Under the TypeScript test runner
 * modules are .ts files, which worker threads cannot load: then the compiled copy in dist/ is used
 * (tests build it first).
 */
export function workerScript(moduleUrl: string, fileName: string): string {
  const here = fileURLToPath(moduleUrl);
  const sibling = path.join(path.dirname(here), fileName);
  if (fs.existsSync(sibling)) return sibling;
  const root = here.slice(0, here.lastIndexOf(`${path.sep}electron${path.sep}`));
  return path.join(root, 'dist', path.relative(root, path.dirname(here)), fileName);
}
