/**
 * Bounds for what a source sends as JSON (MQTT messages, SQL json cells): a value nested deeper
 * than `maxDepth` or bigger than `maxBytes` is refused with a reason before any recursive code
 * (JSON.stringify, flattening) touches it. A 12 KB message of 6,000 nested lists otherwise exhausts
 * the stack (issue 39). Every check here is iterative and linear in the input.
 */

export interface JsonLimits {
  /** Deepest nesting of objects and lists. Machines send a few levels; MySQL itself allows 100. */
  maxDepth: number;
  /** Bytes of JSON text (a message, a cell). */
  maxBytes: number;
}

export const JSON_LIMITS: JsonLimits = { maxDepth: 100, maxBytes: 16 * 1024 * 1024 };

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const OPEN_LIST = 0x5b;
const CLOSE_OBJECT = 0x7d;
const CLOSE_LIST = 0x5d;

/** Why a JSON text cannot be read within `limits`, or undefined when it can (its syntax is JSON.parse's business). */
export function jsonTextProblem(text: Uint8Array | string, limits: JsonLimits = JSON_LIMITS): string | undefined {
  const length = typeof text === 'string' ? text.length : text.byteLength;
  if (length > limits.maxBytes) return `larger than ${describeBytes(limits.maxBytes)} (${describeBytes(length)})`;
  const at = typeof text === 'string' ? (i: number) => text.charCodeAt(i) : (i: number) => text[i]!;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < length; i += 1) {
    const c = at(i);
    if (inString) {
      if (c === BACKSLASH) i += 1;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN_OBJECT || c === OPEN_LIST) {
      depth += 1;
      if (depth > limits.maxDepth) return `nested deeper than ${limits.maxDepth} levels`;
    } else if (c === CLOSE_OBJECT || c === CLOSE_LIST) depth -= 1;
  }
  return undefined;
}

/**
 * JSON text of a value a driver built (a parsed json column), or why it cannot be kept: the walk is
 * iterative and stops at the first bound it crosses, so it never recurses into a hostile value.
 */
export function boundedJsonText(value: unknown, limits: JsonLimits = JSON_LIMITS): { text: string } | { problem: string } {
  // Each value costs at least a byte of text: more values than maxBytes cannot fit.
  let values = 0;
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const item = stack.pop()!;
    values += 1;
    if (values > limits.maxBytes) return { problem: `larger than ${describeBytes(limits.maxBytes)}` };
    if (item.value === null || typeof item.value !== 'object') continue;
    if (item.depth >= limits.maxDepth) return { problem: `nested deeper than ${limits.maxDepth} levels` };
    const children = Array.isArray(item.value) ? item.value : Object.values(item.value as object);
    for (const child of children) stack.push({ value: child, depth: item.depth + 1 });
  }
  const text = JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
  if (text !== undefined && text.length > limits.maxBytes) return { problem: `larger than ${describeBytes(limits.maxBytes)} (${describeBytes(text.length)})` };
  return { text: text ?? 'null' };
}

export function describeBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Number((bytes / 1024 / 1024).toFixed(1))} MiB`;
  if (bytes >= 1024) return `${Number((bytes / 1024).toFixed(1))} KiB`;
  return `${bytes} bytes`;
}
