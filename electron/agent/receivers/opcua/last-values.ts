import type { FieldValue } from '../../../../shared/records/record.js';
import { storedMicros } from './gap-spans.js';
import type { Converted } from './values.js';

/**
 * A tag's last value as committed: a value equal to it (same node, source time, status and value)
 * is the same sample seen again — after a restart, or a poll of an unchanged tag — and is not
 * recorded twice. A rejected value counts as the empty value it is recorded as.
 */
export interface LastValue {
  readonly node: string;
  /** Source time, epoch µs. */
  readonly micros: number;
  readonly status: string;
  /** The scalar; for an array, the JSON text of its values (compared as text). */
  readonly value: FieldValue;
  readonly array: boolean;
  /** This tag's part of the stored row: `"<exportname>":["<node>",<micros>,"<status>",<value>]`. */
  readonly entry: string;
}

/**
 * The stream state holding the last value of every tag of a stream, one row per stream:
 * `{"<exportname>":["<node>",<µs>,"<status>",<value or [values]>], …}`. It replaced one row per tag
 * (`tag:<exportname>`, still read when a stream has no row yet: an agent updated in place): 20,000
 * tag rows upserted a second cost SQLite ~80–100 ms of CPU, 100 stream rows ~6 (docs/performance.md).
 */
export const LAST_VALUES_KEY = 'last_values';
/** The row per tag of builds before LAST_VALUES_KEY: `JSON.stringify({ t, node, columns })`. */
const OLD_PREFIX = 'tag:';

/**
 * JSON texts of statuses: a server sends few distinct ones, and every value has one. Short texts
 * only (a string tag value may come here too: at most 1024 of 64 characters are kept).
 */
const statusTexts = new Map<string, string>();
const MAX_STATUS_TEXTS = 1024;
const MAX_STATUS_CHARS = 64;
export function statusText(status: string): string {
  let text = statusTexts.get(status);
  if (text === undefined) {
    text = JSON.stringify(status);
    if (statusTexts.size < MAX_STATUS_TEXTS && status.length <= MAX_STATUS_CHARS) statusTexts.set(status, text);
  }
  return text;
}

/**
 * The pieces as one flat string. V8 keeps a string built by `+` or a template as a tree of its
 * pieces (a cons string: a 32-byte node per piece, each piece an object of its own) until something
 * reads it whole; a tree kept for long costs ~4 times the flat text, and each tag's last value is
 * kept: 20,000 tags held ~6 MB of such trees, made anew every second and promoted to the old
 * generation (docs/performance.md, issue 40 point 2). `join` writes one sequential string.
 */
export const flatText = (...pieces: (string | number)[]): string => pieces.join('');

/** `"<exportname>":["<node>",` of a tag: the fixed start of its entry. */
export const entryStart = (exportname: string, node: string) =>
  flatText(JSON.stringify(exportname), ':[', JSON.stringify(node), ',');

/** The value as LastValue keeps it (a rejected value is recorded empty: null). */
function comparable(converted: Converted): { value: FieldValue; array: boolean } {
  if (converted.kind === 'array') return { value: JSON.stringify(converted.values), array: true };
  return { value: converted.kind === 'scalar' ? converted.value : null, array: false };
}

export function isSame(last: LastValue | undefined, node: string, micros: number, status: string, converted: Converted): boolean {
  if (last === undefined || last.micros !== micros || last.status !== status || last.node !== node) return false;
  if (converted.kind === 'array') return last.array && last.value === JSON.stringify(converted.values);
  return !last.array && last.value === (converted.kind === 'scalar' ? converted.value : null);
}

export function lastValue(start: string, node: string, micros: number, status: string, converted: Converted): LastValue {
  const { value, array } = comparable(converted);
  // Arrays are already JSON text; scalars are JSON values (no NaN or infinities: values.ts).
  const text = array ? (value as string) : JSON.stringify(value);
  const entry = flatText(start, micros, ',', statusText(status), ',', text, ']');
  return { node, micros, status, value, array, entry };
}

/** The stored row of a stream's last values (entries in the order given). */
export function lastValuesText(values: readonly LastValue[]): string {
  const parts: string[] = ['{'];
  for (let i = 0; i < values.length; i += 1) parts.push(i === 0 ? '' : ',', values[i]!.entry);
  parts.push('}');
  // One flat text (see flatText): built by `+=`, a stream's row was a tree of a piece per tag.
  return parts.join('');
}

/**
 * The last values stored for these tags: the stream's row, else (a stream last committed by a build
 * before the row) its rows per tag. Anything unreadable is no last value: that tag's next value is
 * recorded (at least once, never lost).
 */
export function loadLastValues(exportnames: Iterable<string>, load: (key: string) => string | undefined): Map<string, LastValue> {
  const wanted = new Set(exportnames);
  const out = new Map<string, LastValue>();
  const row = load(LAST_VALUES_KEY);
  if (row !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(row);
    } catch {
      return out;
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return out;
    for (const [exportname, item] of Object.entries(parsed)) {
      const last = wanted.has(exportname) ? fromEntry(exportname, item) : undefined;
      if (last) out.set(exportname, last);
    }
    return out;
  }
  for (const exportname of wanted) {
    const last = fromFingerprint(exportname, load(`${OLD_PREFIX}${exportname}`));
    if (last) out.set(exportname, last);
  }
  return out;
}

const isScalar = (v: unknown): v is FieldValue => v === null || typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));

function fromEntry(exportname: string, item: unknown): LastValue | undefined {
  if (!Array.isArray(item) || item.length !== 4) return undefined;
  const [node, micros, status, value] = item as unknown[];
  if (typeof node !== 'string' || typeof micros !== 'number' || !Number.isSafeInteger(micros) || typeof status !== 'string') return undefined;
  if (Array.isArray(value) && value.every(isScalar)) return lastValue(entryStart(exportname, node), node, micros, status, { kind: 'array', values: value });
  return isScalar(value) ? lastValue(entryStart(exportname, node), node, micros, status, { kind: 'scalar', value }) : undefined;
}

/** A row of the per-tag format: `{ t, node, columns: { <exportname> or <exportname>_<i>…, <exportname>_status } }`. */
function fromFingerprint(exportname: string, saved: string | undefined): LastValue | undefined {
  const micros = storedMicros(saved);
  if (saved === undefined || micros === undefined) return undefined;
  const { node, columns } = JSON.parse(saved) as { node?: unknown; columns?: unknown };
  if (typeof node !== 'string' || columns === null || typeof columns !== 'object' || Array.isArray(columns)) return undefined;
  const statusName = `${exportname}_status`;
  const status = (columns as Record<string, unknown>)[statusName];
  if (typeof status !== 'string') return undefined;
  const rest = Object.entries(columns).filter(([name]) => name !== statusName);
  const values = rest.map(([, v]) => v);
  if (!values.every(isScalar)) return undefined;
  const start = entryStart(exportname, node);
  const scalar = rest.length === 1 && rest[0]![0] === exportname;
  return lastValue(start, node, Number(micros), status, scalar ? { kind: 'scalar', value: values[0]! } : { kind: 'array', values });
}
