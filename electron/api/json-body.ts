/**
 * Request bodies are read before anything trusts them: their shape is bounded (nesting depth, number
 * of values) and keys that would reach an object's prototype are refused, before JSON.parse builds
 * the objects. The scan runs in slices with a pause between them, so an 8 MiB body of millions of
 * empty objects neither blocks the event loop (JSON.parse alone took 0.8 s for it) nor costs the
 * gigabytes its objects would.
 */

export interface JsonBodyLimits {
  /** Deepest nesting of objects and lists. */
  maxDepth: number;
  /** Values (objects, lists, texts, numbers, true/false/null) in one body. */
  maxValues: number;
}

/**
 * A configuration is about 8 levels deep and a KPI definition about 6; 64 leaves room and stops
 * stack-deep documents. 150,000 values hold 5,000 receivers (docs/decisions/0011) and parse in
 * ~45 ms even when they are all empty objects.
 */
export const JSON_BODY_LIMITS: JsonBodyLimits = { maxDepth: 64, maxValues: 150_000 };

/**
 * Configuration bodies (save, validate, preview) may hold 600,000 values: a 50,000-tag OPC UA line
 * is ~160,000 values on its own (docs/decisions/0053-large-configuration-bodies.md). Depth and keys
 * are judged as for every body; the document goes on to CONFIG_LIMITS and the validate thread.
 */
export const CONFIG_BODY_LIMITS: JsonBodyLimits = { maxDepth: 64, maxValues: 600_000 };

/** Method and path of the routes whose body is a configuration. */
const CONFIG_ROUTES: ReadonlySet<string> = new Set(['POST /v1/config', 'POST /v1/config/validate', 'POST /v1/config/preview']);

/** The limits for the body of `method path` (a path without query, as the router sees it). */
export function jsonBodyLimitsFor(method: string, path: string): JsonBodyLimits {
  const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  return CONFIG_ROUTES.has(`${method.toUpperCase()} ${trimmed}`) ? CONFIG_BODY_LIMITS : JSON_BODY_LIMITS;
}

/**
 * Keys refused anywhere in a body: `__proto__` would replace an object's prototype when copied
 * (`{"__proto__": {...}}` passed validation but saved as `{}`), and `constructor` names a function
 * on every plain object. Neither is a field of anything Tributary accepts.
 */
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor']);

export type JsonBodyResult = { ok: true; value: unknown } | { ok: false; status: 400 | 413; message: string };

/** Characters scanned between two pauses (a few milliseconds of work). */
const SLICE_CHARS = 256 * 1024;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

type Path = (string | number)[];
const describePath = (path: Path) => (path.length === 0 ? 'the top level' : JSON.stringify(path));

function tooDeep(limits: JsonBodyLimits): JsonBodyResult {
  return { ok: false, status: 400, message: `The JSON body is nested deeper than ${limits.maxDepth} levels; no request needs that many.` };
}
function tooMany(limits: JsonBodyLimits): JsonBodyResult {
  return { ok: false, status: 413, message: `The JSON body holds more than ${limits.maxValues.toLocaleString('en-US')} values; split it or leave out what is not needed (limits: docs/security.md).` };
}
function forbidden(key: string, path: Path): JsonBodyResult {
  return { ok: false, status: 400, message: `The key "${key}" is not allowed (at ${describePath(path)}): it is no field of anything Tributary accepts.` };
}

/**
 * Parses a request body: a UTF-8 byte order mark is skipped, the shape is checked against `limits`
 * and FORBIDDEN_KEYS, then JSON.parse builds the value. `pause` is awaited between slices of the scan.
 */
export async function parseJsonBody(text: string, limits: JsonBodyLimits = JSON_BODY_LIMITS, pause: () => Promise<void> = () => new Promise((resolve) => setImmediate(resolve))): Promise<JsonBodyResult> {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const problem = await scan(body, limits, pause);
  if (problem) return problem;
  try {
    return { ok: true, value: JSON.parse(body) };
  } catch (cause) {
    return { ok: false, status: 400, message: `The request body is not valid JSON: ${(cause as Error).message}` };
  }
}

/**
 * One pass over the text that counts values and nesting and reads each key. It does not check the
 * grammar (JSON.parse does, afterwards); for any valid JSON its counts are exact.
 */
async function scan(text: string, limits: JsonBodyLimits, pause: () => Promise<void>): Promise<JsonBodyResult | undefined> {
  // Per open container: its path entry (key or index) and whether the next text is a key.
  const path: Path = [];
  const kinds: ('object' | 'array')[] = [];
  let expectKey = false;
  let values = 0;
  let i = 0;
  const length = text.length;
  while (i < length) {
    const sliceEnd = Math.min(length, i + SLICE_CHARS);
    while (i < sliceEnd) {
      const c = text.charCodeAt(i);
      if (c === QUOTE) {
        const end = stringEnd(text, i);
        if (kinds.at(-1) === 'object' && expectKey) {
          const raw = text.slice(i + 1, end);
          let key = raw;
          if (raw.includes('\\')) {
            try {
              key = JSON.parse(text.slice(i, end + 1)) as string;
            } catch {
              // Malformed: JSON.parse refuses the body below.
            }
          }
          if (FORBIDDEN_KEYS.has(key)) return forbidden(key, path.slice(0, -1));
          path[path.length - 1] = key;
          expectKey = false;
        } else values += 1;
        i = end + 1;
      } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
        values += 1;
        kinds.push(c === 0x7b ? 'object' : 'array');
        if (kinds.length > limits.maxDepth) return tooDeep(limits);
        path.push(c === 0x7b ? '' : 0);
        expectKey = c === 0x7b;
        i += 1;
      } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
        kinds.pop();
        path.pop();
        expectKey = false;
        i += 1;
      } else if (c === 0x2c /* , */) {
        if (kinds.at(-1) === 'object') expectKey = true;
        else if (kinds.length > 0) path[path.length - 1] = (path.at(-1) as number) + 1;
        i += 1;
      } else if (c === 0x3a /* : */ || c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) {
        i += 1;
      } else {
        // A number, true, false or null: one value up to the next delimiter.
        values += 1;
        i += 1;
        while (i < length && !isDelimiter(text.charCodeAt(i))) i += 1;
      }
      if (values > limits.maxValues) return tooMany(limits);
    }
    if (i < length) await pause();
  }
  return undefined;
}

function isDelimiter(c: number): boolean {
  return c === 0x2c || c === 0x5d || c === 0x7d || c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || c === 0x3a || c === QUOTE || c === 0x7b || c === 0x5b;
}

/** Index of the quote that closes the text starting at `start` (or the end of the body). */
function stringEnd(text: string, start: number): number {
  let at = start + 1;
  for (;;) {
    const quote = text.indexOf('"', at);
    if (quote < 0) return text.length;
    let backslashes = 0;
    for (let k = quote - 1; k > start && text.charCodeAt(k) === BACKSLASH; k -= 1) backslashes += 1;
    if (backslashes % 2 === 0) return quote;
    at = quote + 1;
  }
}

/**
 * The same limits for a value that arrived already built (Electron IPC hands over objects).
 * Returns undefined when the value is within them.
 */
export function checkJsonValue(value: unknown, limits: JsonBodyLimits = JSON_BODY_LIMITS): JsonBodyResult | undefined {
  const stack: { node: unknown; depth: number; path: Path }[] = [{ node: value, depth: 0, path: [] }];
  let values = 0;
  while (stack.length > 0) {
    const { node, depth, path } = stack.pop()!;
    values += 1;
    if (values > limits.maxValues) return tooMany(limits);
    if (node === null || typeof node !== 'object') continue;
    if (depth + 1 > limits.maxDepth) return tooDeep(limits);
    const children = Array.isArray(node) ? node.length : Object.keys(node).length;
    if (values + stack.length + children > limits.maxValues) return tooMany(limits);
    if (Array.isArray(node)) node.forEach((item, index) => stack.push({ node: item, depth: depth + 1, path: [...path, index] }));
    else
      for (const key of Object.keys(node)) {
        if (FORBIDDEN_KEYS.has(key)) return forbidden(key, path);
        stack.push({ node: (node as Record<string, unknown>)[key], depth: depth + 1, path: [...path, key] });
      }
  }
  return undefined;
}
