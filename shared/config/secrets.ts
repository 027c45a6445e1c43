/**
 * Secret masking. GET /v1/config shows every `password` and `API_key` as "********"; a save that
 * sends "********" back keeps the stored value while its target is unchanged (secret-targets.ts).
 * Which stored value is found by the owner's identity: a receiver by data_receiver_name, a
 * transmit by transmit_name, a connection by connection_name (else by position).
 */
import { SECRET_KEYS, SECRET_MASK } from './schema.js';
import { type JsonPath, type Violation, error, say } from './violations.js';
import { type TargetField, secretTargetAt } from './secret-targets.js';

type Json = unknown;

/**
 * `node` with every non-empty secret value replaced by `transform(value)`. Only the objects on the
 * way to a secret are copied; everything else is shared with `node` (a configuration of thousands of
 * receivers holds a handful of secrets: copying all of it cost ~100 ms).
 */
export function mapSecretValues(node: Json, transform: (value: string) => string): Json {
  if (Array.isArray(node)) {
    let out: Json[] | undefined;
    for (let i = 0; i < node.length; i += 1) {
      const mapped = mapSecretValues(node[i], transform);
      if (mapped !== node[i]) (out ??= node.slice())[i] = mapped;
    }
    return out ?? node;
  }
  if (node && typeof node === 'object') {
    const holder = node as Record<string, Json>;
    let out: Record<string, Json> | undefined;
    for (const key of Object.keys(holder)) {
      const value = holder[key];
      const mapped = SECRET_KEYS.has(key) && typeof value === 'string' && value !== '' ? transform(value) : mapSecretValues(value, transform);
      if (mapped === value) continue;
      if (!out) {
        out = {};
        for (const k of Object.keys(holder)) setOwn(out, k, holder[k]);
      }
      setOwn(out, key, mapped);
    }
    return out ?? node;
  }
  return node;
}

/** `config` with every secret replaced by the mask (non-empty values only); `config` is not changed. */
export function maskSecrets<T>(config: T): T {
  return mapSecretValues(config, () => SECRET_MASK) as T;
}

/** Every secret value in a configuration, for redaction from logs. */
export function collectSecrets(config: unknown): string[] {
  const found = new Set<string>();
  const stack: Json[] = [config];
  while (stack.length > 0) {
    const node = stack.pop();
    if (Array.isArray(node)) for (const item of node) stack.push(item);
    else if (node && typeof node === 'object')
      for (const key of Object.keys(node)) {
        const value = (node as Record<string, Json>)[key];
        if (SECRET_KEYS.has(key) && typeof value === 'string' && value !== '' && value !== SECRET_MASK) found.add(value);
        else if (value && typeof value === 'object') stack.push(value);
      }
  }
  return [...found];
}

const asRecord = (v: unknown): Record<string, unknown> | undefined =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;

/**
 * Sets an own property, whatever the key: `out[key] = …` with key "__proto__" would replace the
 * prototype instead (the API refuses such keys; this keeps copies honest anyway).
 */
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/** Lists whose items are matched by name, not by position: reordering keeps their secrets. */
const IDENTITY: Record<string, string> = {
  data_receiver: 'data_receiver_name',
  data_transmit: 'transmit_name',
  transforms: 'transform_name',
  connections: 'connection_name',
};

interface Counterpart {
  stored: Record<string, unknown> | undefined;
  /** The top-level items (receiver, transmit) holding both, for defaults that depend on them. */
  incomingOwner: Record<string, unknown> | undefined;
  storedOwner: Record<string, unknown> | undefined;
}

/** Finds the stored object that the incoming object at `path` stands for. */
function counterpartOf(incomingRoot: unknown, storedRoot: unknown, path: JsonPath): Counterpart {
  let incoming: unknown = incomingRoot;
  let stored: unknown = storedRoot;
  const owners: { incoming?: unknown; stored?: unknown } = {};
  path.forEach((part, depth) => {
    if (typeof part === 'number') {
      const item = Array.isArray(incoming) ? incoming[part] : undefined;
      const idKey = IDENTITY[String(path[depth - 1])];
      const id = idKey ? asRecord(item)?.[idKey] : undefined;
      const list = Array.isArray(stored) ? stored : [];
      stored = typeof id === 'string' ? list.find((candidate) => asRecord(candidate)?.[idKey!] === id) : list[part];
      incoming = item;
    } else {
      incoming = asRecord(incoming)?.[part];
      stored = asRecord(stored)?.[part];
    }
    if (depth === 1) {
      owners.incoming = incoming;
      owners.stored = stored;
    }
  });
  return { stored: asRecord(stored), incomingOwner: asRecord(owners.incoming), storedOwner: asRecord(owners.stored) };
}

const shown = (value: unknown) => (value === undefined ? '(none)' : JSON.stringify(value));

/** The target fields that differ between the incoming and the stored holder, in words. */
function targetChanges(holderPath: JsonPath, key: string, incoming: Record<string, unknown>, found: Counterpart, roots: { incoming: unknown; stored: unknown }): string[] {
  const stored = found.stored!;
  const row = secretTargetAt(holderPath, key, incoming);
  const fields: TargetField[] =
    row?.fields.slice() ??
    // No row for this place: every other plain field of the holder counts.
    [...new Set([...Object.keys(incoming), ...Object.keys(stored)])].filter((name) => !SECRET_KEYS.has(name) && asRecord(incoming[name]) === undefined && !Array.isArray(incoming[name])).map((name) => ({ name }));
  const changes: string[] = [];
  for (const field of fields) {
    const before = field.read ? field.read(stored, found.storedOwner, asRecord(roots.stored)) : stored[field.name];
    const after = field.read ? field.read(incoming, found.incomingOwner, asRecord(roots.incoming)) : incoming[field.name];
    if (JSON.stringify(before) === JSON.stringify(after)) continue;
    // A target read from elsewhere (not a field of the holder) is shown as read.
    const derived = stored[field.name] === undefined && incoming[field.name] === undefined;
    changes.push(derived ? `${field.name} ${shown(before)} → ${shown(after)}` : `${field.name} ${shown(stored[field.name])} → ${shown(incoming[field.name])}`);
  }
  return changes;
}

/**
 * Replaces every mask in `incoming` by the stored secret it stands for, but only while the target
 * the secret authenticates to is unchanged (SECRET_TARGETS). A mask with no stored counterpart (a
 * new receiver, a renamed transmit), or whose target changed, is an error at its json_path (and
 * stays a mask). Works on `incoming` itself, which must be the caller's own copy (a parsed request
 * body): a configuration of thousands of receivers is walked, not copied.
 */
export function unmaskSecrets(incoming: unknown, stored: unknown): { config: unknown; violations: Violation[] } {
  const violations: Violation[] = [];
  const path: JsonPath = [];
  const resolve = (holder: Record<string, unknown>, key: string) => {
    const here = [...path];
    const found = counterpartOf(incoming, stored, here);
    const original = found.stored?.[key];
    if (typeof original !== 'string') {
      violations.push(error([...here, key], say('secrets.saved_value_belongs_here', '{key} is "{SECRET_MASK}" but no saved value belongs here (new or renamed entry): type the real {key}.', { key, SECRET_MASK })));
      return;
    }
    const changes = targetChanges(here, key, holder, found, { incoming, stored });
    if (changes.length > 0) {
      const target = secretTargetAt(here, key, holder)?.target ?? 'what it belongs to';
      violations.push(error([...here, key], say('secrets.re_enter_changed_saved', 'Re-enter the {key}: {target} changed ({changes}). A saved {key} is only used for the target it was saved for.', { key, target, changes: changes.join(', ') })));
    } else setOwn(holder, key, original);
  };
  const visit = (node: Json): void => {
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i += 1) {
        path.push(i);
        visit(node[i]);
        path.pop();
      }
    } else if (node && typeof node === 'object') {
      const holder = node as Record<string, unknown>;
      for (const key of Object.keys(holder)) {
        const value = holder[key];
        if (SECRET_KEYS.has(key) && value === SECRET_MASK) resolve(holder, key);
        else if (value && typeof value === 'object') {
          path.push(key);
          visit(value);
          path.pop();
        }
      }
    }
  };
  visit(incoming);
  return { config: incoming, violations };
}
