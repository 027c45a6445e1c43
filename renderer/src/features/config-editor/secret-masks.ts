/**
 * After a save the agent answers with its secrets masked. The editor keeps the engineer's text (its
 * formatting, the cursor) and only puts the mask where a new secret was typed, so that a password
 * does not stay readable on screen.
 */
import { applyEdits, findNodeAtLocation, modify, parseTree, type Edit, type JSONPath } from 'jsonc-parser';
import { SECRET_KEYS, SECRET_MASK } from '../../../../shared/config/schema.js';

function maskedPaths(value: unknown, path: JSONPath = [], out: JSONPath[] = []): JSONPath[] {
  if (Array.isArray(value)) value.forEach((item, i) => maskedPaths(item, [...path, i], out));
  else if (value !== null && typeof value === 'object')
    for (const [key, child] of Object.entries(value)) {
      if (SECRET_KEYS.has(key) && child === SECRET_MASK) out.push([...path, key]);
      else maskedPaths(child, [...path, key], out);
    }
  return out;
}

/** Minimal edits that mask, in `text`, the secrets the saved document shows masked. */
export function secretMaskEdits(text: string, saved: unknown): Edit[] {
  const tree = parseTree(text);
  if (!tree) return [];
  const edits: Edit[] = [];
  for (const path of maskedPaths(saved)) {
    const node = findNodeAtLocation(tree, path);
    if (!node || node.type !== 'string' || node.value === SECRET_MASK) continue;
    edits.push(...modify(text, path, SECRET_MASK, {}));
  }
  return edits;
}

export function withSecretsMasked(text: string, saved: unknown): string {
  return applyEdits(text, secretMaskEdits(text, saved));
}
