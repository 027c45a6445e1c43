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

const TOO_DEEP = `nested deeper than ${DOCUMENT_LIMITS.maxDepth} levels`;
const TOO_WIDE = `more than ${DOCUMENT_LIMITS.maxFields} fields`;

/**
 * The fields of one record, or why it cannot be one (nested deeper than DOCUMENT_LIMITS.maxDepth,
 * more than maxFields fields). Objects are walked by recursion bounded by the depth limit; an array
 * (kept as its JSON text) is measured without recursion before it is written.
 */
export function flattenRecord(value: unknown): Record<string, FieldValue> | string {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    if (Array.isArray(value) && depthOf(value, DOCUMENT_LIMITS.maxDepth) > DOCUMENT_LIMITS.maxDepth) return TOO_DEEP;
    return { 0: scalarOrText(value) };
  }
  const out: Record<string, FieldValue> = {};
  const fields = visit(value as Record<string, unknown>, '', 1, out, 0);
  return typeof fields === 'string' ? fields : out;
}

/**
 * "outer.inner" names by prefix and key, made once: a name made anew for every record is a new
 * string that each property write must look up in V8's string table (and more garbage). Keys and
 * prefixes are the same few in most files; a file whose keys are all different empties it.
 */
const NAMES = new Map<string, Map<string, string>>();
let named = 0;
function nameOf(prefix: string, key: string): string {
  let byKey = NAMES.get(prefix);
  if (byKey === undefined) {
    if (named > 10_000) {
      NAMES.clear();
      named = 0;
    }
    byKey = new Map();
    NAMES.set(prefix, byKey);
  }
  let name = byKey.get(key);
  if (name === undefined) {
    name = prefix + key;
    byKey.set(key, name);
    named += 1;
  }
  return name;
}

/** Writes an object's fields into `out` (hot: one call a record and nested object); the fields so far, or a problem. */
function visit(object: Record<string, unknown>, prefix: string, depth: number, out: Record<string, FieldValue>, fields: number): number | string {
  if (depth > DOCUMENT_LIMITS.maxDepth) return TOO_DEEP;
  // for-in over JSON.parse's plain objects: their own keys, in their order, without an entries array.
  for (const key in object) {
    const child = object[key];
    const name = prefix === '' ? key : nameOf(prefix, key);
    if (child !== null && typeof child === 'object') {
      if (!Array.isArray(child)) {
        const nested = visit(child as Record<string, unknown>, nameOf(name, '.'), depth + 1, out, fields);
        if (typeof nested === 'string') return nested;
        fields = nested;
        continue;
      }
      if (depthOf(child, DOCUMENT_LIMITS.maxDepth - depth) > DOCUMENT_LIMITS.maxDepth - depth) return TOO_DEEP;
    }
    if ((fields += 1) > DOCUMENT_LIMITS.maxFields) return TOO_WIDE;
    // A "__proto__" key is a field like any other (an assignment would set the object's prototype).
    if (name === '__proto__') Object.defineProperty(out, name, { value: scalarOrText(child), enumerable: true, writable: true, configurable: true });
    else out[name] = scalarOrText(child);
  }
  return fields;
}

function scalarOrText(value: unknown): FieldValue {
  if (value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  return JSON.stringify(value);
}
