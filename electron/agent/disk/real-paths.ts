/**
 * Paths as they really are: relative paths resolved from the agent's working folder, `..` worked
 * out, links followed. The read policy (receivers, preview) and the write policy (csv transmits)
 * judge these, never the text of a path.
 */
import fs from 'node:fs';
import path from 'node:path';

/**
 * The real path of `target` (relative paths from the agent's working folder, as the localfile
 * receiver resolves them): its nearest existing ancestor resolved through links, the rest appended.
 */
export async function realPath(target: string): Promise<string> {
  const missing: string[] = [];
  let current = path.resolve(target);
  for (;;) {
    try {
      return path.join(await fs.promises.realpath(current), ...missing.reverse());
    } catch {
      const parent = path.dirname(current);
      if (parent === current) return path.resolve(target);
      missing.push(path.basename(current));
      current = parent;
    }
  }
}

/** The real path of `target`: its nearest existing ancestor resolved through links, the rest appended. */
export function realPathSync(target: string): string {
  const missing: string[] = [];
  let current = path.resolve(target);
  for (;;) {
    try {
      return path.join(fs.realpathSync(current), ...missing.reverse());
    } catch {
      const parent = path.dirname(current);
      if (parent === current) return path.resolve(target);
      missing.push(path.basename(current));
      current = parent;
    }
  }
}

export function within(inner: string, outer: string): boolean {
  const relative = path.relative(outer, inner);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}
