/**
 * Turns the zod schemas of the route table into OpenAPI `components/schemas` whose every `$ref`
 * resolves inside the document.
 *
 * zod converts each schema for a root of its own: a recursive schema (a JSON value) refers to
 * `#/$defs/...` of that root, which an OpenAPI document does not have. Here every schema is
 * converted in one pass over a registry, so zod sees which schemas recur and which are shared, and
 * the result is rewritten into components with readable names that only change when the schemas do:
 * - a schema named by the caller keeps that name (`Configuration`); an unnamed one that is
 *   structurally the same (another `z.json()`) becomes that component too;
 * - any other recursive or shared schema is named after where it is first used, in route order
 *   (`ConfigurationDataReceiverItemStreams`), or after its `.meta({ title })`;
 * - a schema used once, or too small to be worth a name, is written in place.
 * Nothing here knows a particular route, so a new route's schemas get the same treatment.
 */
import { z } from 'zod';

export type JsonSchema = Record<string, unknown>;

/** A schema the caller wants under a fixed component name when the document uses it. */
export type NamedSchema = readonly [schema: z.ZodType, name: string];

/** One place of the document that holds a schema (a route's body, response, …), named in PascalCase. */
export interface SchemaSlot {
  name: string;
  schema: z.ZodType;
}

export interface LiftedSchemas {
  /** The schema for a slot: a `$ref` to its component, or the schema itself when it has none. */
  slot(name: string): JsonSchema;
  /** `components/schemas`: every component that some slot reaches, by name. */
  components: Record<string, JsonSchema>;
}

const COMPONENTS = '#/components/schemas/';
const SHARED = `${COMPONENTS}__shared#/$defs/`;
// Keys of a node not yet named: never a valid component name, so they cannot collide with one.
const PENDING = '~';

export function liftSchemas(slots: readonly SchemaSlot[], named: readonly NamedSchema[] = []): LiftedSchemas {
  const registry = z.registry<{ id: string }>();
  const fixedNames = new Set<string>();
  const idOf = new Map<z.ZodType, string>();
  const register = (schema: z.ZodType, wanted: string) => {
    let id = idOf.get(schema);
    if (id) return id;
    id = uniqueName(wanted, new Set(registry._idmap.keys()));
    registry.add(schema, { id });
    idOf.set(schema, id);
    return id;
  };
  for (const [schema, name] of named) fixedNames.add(register(schema, name));
  const slotNode = new Map(slots.map((slot) => [slot.name, register(slot.schema, slot.name)]));

  const converted = z.toJSONSchema(registry, {
    io: 'input',
    unrepresentable: 'any',
    cycles: 'ref',
    reused: 'ref',
    uri: (id) => `${COMPONENTS}${id}`,
  });
  const nodes = new Map<string, JsonSchema>();
  for (const [id, body] of Object.entries(converted.schemas)) {
    if (id === '__shared') continue;
    const { $id: _id, $schema: _dialect, ...rest } = body as JsonSchema;
    nodes.set(id, rest);
  }
  const sharedDefs = (converted.schemas.__shared?.$defs ?? {}) as Record<string, JsonSchema>;
  for (const [key, body] of Object.entries(sharedDefs)) nodes.set(PENDING + key, body);
  for (const [key, body] of nodes) nodes.set(key, mapRefs(body, toNodeKey));

  mergeDuplicates(nodes);
  nameNodes(nodes, [...slotNode.values()]);

  const kept = keptNodes(nodes, [...slotNode.values()], fixedNames);
  const materialize = (schema: JsonSchema): JsonSchema =>
    rewrite(schema, (ref, siblings) =>
      kept.has(ref) ? { $ref: COMPONENTS + ref, ...siblings } : { ...materialize(nodes.get(ref)!), ...siblings },
    );
  const components: Record<string, JsonSchema> = {};
  for (const key of [...kept].sort()) components[key] = materialize(nodes.get(key)!);
  return {
    components,
    slot(name) {
      const key = slotNode.get(name);
      if (key === undefined) throw new Error(`No schema slot named ${name}`);
      return materialize({ $ref: key });
    },
  };

  function toNodeKey(ref: string): string {
    if (ref.startsWith(SHARED)) return PENDING + decodePointer(ref.slice(SHARED.length));
    if (ref.startsWith(COMPONENTS)) return decodePointer(ref.slice(COMPONENTS.length));
    throw new Error(`zod gave a reference outside the registry: ${ref}`);
  }

  /**
   * Gives each pending node a name from the place it is first reached, in slot order: the named or
   * slot component it sits in and the last property on the way (`Configuration` + `streams`).
   */
  function nameNodes(all: Map<string, JsonSchema>, roots: string[]): void {
    const names = new Map<string, string>();
    const rootOf = new Map<string, string>();
    const taken = new Set([...all.keys()].filter((key) => !key.startsWith(PENDING)));
    const queue = [...new Set(roots)];
    for (let i = 0; i < queue.length; i++) {
      const owner = queue[i]!;
      const root = rootOf.get(owner) ?? owner;
      walk(all.get(owner)!, [], (ref, path) => {
        if (ref.startsWith(PENDING) && !names.has(ref)) {
          const title = all.get(ref)!.title;
          const titled = typeof title === 'string' ? pascal(title) : '';
          const wanted = titled || root + (pascal(lastProperty(path)) || 'Part');
          const name = uniqueName(wanted, taken);
          taken.add(name);
          names.set(ref, name);
          rootOf.set(ref, root);
        }
        if (!queue.includes(ref)) queue.push(ref);
      });
    }
    // Pending nodes no slot reaches are dropped with the other unused ones; they need a key all the same.
    for (const key of all.keys()) {
      if (key.startsWith(PENDING) && !names.has(key)) names.set(key, uniqueName('Unused', taken));
    }
    renameNodes(all, names);
  }
}

/** Merges nodes that say the same (two `z.json()` are one JsonValue) into the first, until none do. */
function mergeDuplicates(nodes: Map<string, JsonSchema>): void {
  for (let changed = true; changed; ) {
    changed = false;
    const seen = new Map<string, string>();
    const merged = new Map<string, string>();
    for (const [key, body] of nodes) {
      const shape = JSON.stringify(mapRefs(body, (ref) => (ref === key ? '#self' : ref)));
      const first = seen.get(shape);
      if (first === undefined) seen.set(shape, key);
      // A named node never disappears into a pending one: names come first in the map.
      else if (key.startsWith(PENDING)) merged.set(key, first);
    }
    if (merged.size === 0) return;
    changed = true;
    for (const key of merged.keys()) nodes.delete(key);
    for (const [key, body] of nodes) nodes.set(key, mapRefs(body, (ref) => merged.get(ref) ?? ref));
  }
}

function renameNodes(nodes: Map<string, JsonSchema>, names: Map<string, string>): void {
  const rename = (key: string) => names.get(key) ?? key;
  const entries = [...nodes].map(([key, body]) => [rename(key), mapRefs(body, rename)] as const);
  nodes.clear();
  for (const [key, body] of entries) nodes.set(key, body);
}

/**
 * Components worth their name: the caller's, the recursive ones (they cannot be written in place),
 * and those used more than once that are more than a scalar. Only nodes a slot reaches count.
 */
function keptNodes(nodes: Map<string, JsonSchema>, roots: string[], fixed: Set<string>): Set<string> {
  const uses = new Map<string, number>();
  const count = (key: string) => uses.set(key, (uses.get(key) ?? 0) + 1);
  roots.forEach(count);
  const reached = new Set<string>();
  const visit = (key: string) => {
    if (reached.has(key)) return;
    reached.add(key);
    walk(nodes.get(key)!, [], (ref) => visit(ref));
  };
  roots.forEach(visit);
  for (const key of reached) walk(nodes.get(key)!, [], (ref) => count(ref));
  const kept = new Set<string>();
  for (const key of reached) {
    const body = nodes.get(key)!;
    // A `$ref` with annotations beside it (a default, a description) goes in place: it adds no structure.
    const many = (uses.get(key) ?? 0) > 1 && typeof body.$ref !== 'string' && isStructured(body, nodes);
    if (fixed.has(key) || many || reaches(nodes, key, key)) kept.add(key);
  }
  return kept;
}

function reaches(nodes: Map<string, JsonSchema>, from: string, target: string, seen = new Set<string>()): boolean {
  let found = false;
  walk(nodes.get(from)!, [], (ref) => {
    if (found || ref === target) found = true;
    else if (!seen.has(ref)) {
      seen.add(ref);
      found = reaches(nodes, ref, target, seen);
    }
  });
  return found;
}

/** More than a scalar: an object, an array, or a choice of which one is. A nullable string is not. */
function isStructured(schema: unknown, nodes: Map<string, JsonSchema>, seen = new Set<string>()): boolean {
  if (typeof schema !== 'object' || schema === null) return false;
  const record = schema as JsonSchema;
  if (typeof record.$ref === 'string') {
    if (seen.has(record.$ref)) return true;
    seen.add(record.$ref);
    return isStructured(nodes.get(record.$ref), nodes, seen);
  }
  const container = (keyword: string) => typeof record[keyword] === 'object' && record[keyword] !== null;
  if (['properties', 'items', 'prefixItems', 'additionalProperties'].some(container)) return true;
  const choices = [record.anyOf, record.oneOf, record.allOf].filter(Array.isArray).flat();
  return choices.some((option) => isStructured(option, nodes, seen));
}

/** The path from the last property name on: `[data_receiver, item, streams, item]` → `streams item`. */
function lastProperty(path: string[]): string {
  const at = path.findLastIndex((segment) => !/^(item|value|option \d+)$/.test(segment));
  return (at < 0 ? path : path.slice(at)).join(' ');
}

/** Calls `visit` for every `$ref` with the property path that leads to it (keywords as words). */
function walk(value: unknown, path: string[], visit: (ref: string, path: string[]) => void): void {
  if (Array.isArray(value)) {
    const choice = path.length > 0 && /^(anyOf|oneOf|allOf)$/.test(path.at(-1)!);
    value.forEach((item, i) => walk(item, choice ? [...path.slice(0, -1), `option ${i + 1}`] : path, visit));
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  for (const [key, child] of Object.entries(value)) {
    if (key === '$ref' && typeof child === 'string') visit(child, path);
    else if (key === 'properties' && typeof child === 'object' && child !== null)
      for (const [name, property] of Object.entries(child)) walk(property, [...path, name], visit);
    else if (key === 'items' || key === 'prefixItems') walk(child, [...path, 'item'], visit);
    else if (key === 'additionalProperties') walk(child, [...path, 'value'], visit);
    else if (key === 'anyOf' || key === 'oneOf' || key === 'allOf') walk(child, [...path, key], visit);
    else walk(child, path, visit);
  }
}

/** A copy with every `$ref` replaced by what `replace` makes of it (and the keywords beside it). */
function rewrite(value: unknown, replace: (ref: string, siblings: JsonSchema) => JsonSchema): JsonSchema {
  const copy = (item: unknown): unknown => {
    if (Array.isArray(item)) return item.map(copy);
    if (typeof item !== 'object' || item === null) return item;
    const record = item as JsonSchema;
    if (typeof record.$ref === 'string') {
      const { $ref, ...siblings } = record;
      return replace($ref, copy(siblings) as JsonSchema);
    }
    return Object.fromEntries(Object.entries(record).map(([key, child]) => [key, copy(child)]));
  };
  return copy(value) as JsonSchema;
}

const mapRefs = (schema: JsonSchema, map: (ref: string) => string) =>
  rewrite(schema, (ref, siblings) => ({ $ref: map(ref), ...siblings }));

const decodePointer = (segment: string) => decodeURIComponent(segment).replace(/~1/g, '/').replace(/~0/g, '~');

/** `data_receiver` → `DataReceiver`; `option 2` → `Option2`. */
export function pascal(text: string): string {
  return text
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join('');
}

function uniqueName(wanted: string, taken: Set<string>): string {
  if (!taken.has(wanted)) return wanted;
  for (let n = 2; ; n++) if (!taken.has(`${wanted}${n}`)) return `${wanted}${n}`;
}
