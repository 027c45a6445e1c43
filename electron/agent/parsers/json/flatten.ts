/**
 * A JSON value as record fields, as pandas json_normalize flattens it: nested objects become
 * "outer.inner" fields, arrays stay one field holding their JSON text, scalars stay as they are.
 */
import type { FieldValue } from '../../../../shared/records/record.js';
import { DOCUMENT_LIMITS } from '../document/document-reader.js';

/** Nesting of a value, counted without recursion (a hostile file may nest a million deep). */
export function depthOf(value: unknown, limit: number): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (item === null || typeof item !== 'object') continue;
    if (depth > deepest) deepest = depth;
    if (deepest > limit) return deepest;
    for (const child of Array.isArray(item) ? item : Object.values(item)) if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return deepest;
}

/** The fields of one record, or why it cannot be one. `value` must be depth-checked already. */
export function flattenRecord(value: unknown): Record<string, FieldValue> | string {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return { 0: scalarOrText(value) };
  const out: Record<string, FieldValue> = {};
  let fields = 0;
  const visit = (object: Record<string, unknown>, prefix: string): string | undefined => {
    for (const [key, child] of Object.entries(object)) {
      const name = prefix + key;
      if (child !== null && typeof child === 'object' && !Array.isArray(child)) {
        const problem = visit(child as Record<string, unknown>, `${name}.`);
        if (problem) return problem;
        continue;
      }
      if ((fields += 1) > DOCUMENT_LIMITS.maxFields) return `more than ${DOCUMENT_LIMITS.maxFields} fields`;
      out[name] = scalarOrText(child);
    }
    return undefined;
  };
  return visit(value as Record<string, unknown>, '') ?? out;
}

function scalarOrText(value: unknown): FieldValue {
  if (value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  return JSON.stringify(value);
}
