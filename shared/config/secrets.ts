/**
 * Secret masking. GET /v1/config shows every `password`, `API_key` and (sight_machine_cloud)
 * `api_key` as "********"; a save that sends "********" back keeps the stored value. Which stored
 * value is found by the owner's identity: a receiver by data_receiver_name and connection position,
 * a transmit by transmit_name, sight_machine_cloud by its path.
 */
import { SECRET_KEYS, SECRET_MASK } from './schema.js';
import { type JsonPath, type Violation, error } from './violations.js';

type Json = unknown;

/** A deep copy of `config` with every secret replaced by the mask (non-empty values only). */
export function maskSecrets<T>(config: T): T {
  const visit = (node: Json): Json => {
    if (Array.isArray(node)) return node.map(visit);
    if (node && typeof node === 'object') {
      const out: Record<string, Json> = {};
      for (const [key, value] of Object.entries(node)) {
        out[key] = SECRET_KEYS.has(key) && typeof value === 'string' && value !== '' ? SECRET_MASK : visit(value);
      }
      return out;
    }
    return node;
  };
  return visit(config) as T;
}

/** Every secret value in a configuration, for redaction from logs. */
export function collectSecrets(config: unknown): string[] {
  const found = new Set<string>();
  const visit = (node: Json) => {
    if (Array.isArray(node)) node.forEach(visit);
    else if (node && typeof node === 'object')
      for (const [key, value] of Object.entries(node)) {
        if (SECRET_KEYS.has(key) && typeof value === 'string' && value !== '' && value !== SECRET_MASK) found.add(value);
        else visit(value);
      }
  };
  visit(config);
  return [...found];
}

const asRecord = (v: unknown): Record<string, unknown> | undefined =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
const asList = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** Finds the stored object that the incoming object at `path` stands for. */
function storedCounterpart(stored: unknown, path: JsonPath, incomingRoot: unknown): unknown {
  const [section, index, ...rest] = path;
  // A top-level object such as sight_machine_cloud: the stored one, by path.
  if (!Array.isArray(asRecord(incomingRoot)?.[String(section)])) {
    let node: unknown = asRecord(stored)?.[String(section)];
    for (const part of path.slice(1)) node = Array.isArray(node) ? node[Number(part)] : asRecord(node)?.[String(part)];
    return node;
  }
  const incomingItem = asRecord(asList(asRecord(incomingRoot)?.[String(section)])[Number(index)]);
  const storedList = asList(asRecord(stored)?.[String(section)]);
  let node: unknown;
  if (section === 'data_receiver') node = storedList.find((r) => asRecord(r)?.data_receiver_name === incomingItem?.data_receiver_name);
  else if (section === 'data_transmit') node = storedList.find((t) => asRecord(t)?.transmit_name === incomingItem?.transmit_name);
  else node = storedList[Number(index)];
  for (const part of rest) node = Array.isArray(node) ? node[Number(part)] : asRecord(node)?.[String(part)];
  return node;
}

/**
 * Replaces every mask in `incoming` by the stored secret it stands for. A mask with no stored
 * counterpart (a new receiver, a renamed transmit) is an error at its json_path.
 */
export function unmaskSecrets(incoming: unknown, stored: unknown): { config: unknown; violations: Violation[] } {
  const violations: Violation[] = [];
  const visit = (node: Json, path: JsonPath): Json => {
    if (Array.isArray(node)) return node.map((item, i) => visit(item, [...path, i]));
    if (node && typeof node === 'object') {
      const out: Record<string, Json> = {};
      for (const [key, value] of Object.entries(node)) {
        if (SECRET_KEYS.has(key) && value === SECRET_MASK) {
          const original = asRecord(storedCounterpart(stored, path, incoming))?.[key];
          if (typeof original === 'string') out[key] = original;
          else {
            out[key] = value;
            violations.push(error([...path, key], `${key} is "${SECRET_MASK}" but no saved value belongs here (new or renamed entry): type the real ${key}.`));
          }
        } else out[key] = visit(value, [...path, key]);
      }
      return out;
    }
    return node;
  };
  return { config: visit(incoming, []), violations };
}
