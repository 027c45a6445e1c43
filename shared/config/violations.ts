/**
 * Violations: what validation reports, and the translation of zod issues into messages a plant
 * engineer understands, each at the exact json_path of the offending value.
 */
import { z } from 'zod';
import { type AgentMessage, say } from './message.js';
import { MessageCodeSchema, MessageParamsSchema } from './message-schema.js';

export const JsonPathSchema = z
  .array(z.union([z.string(), z.number().int().min(0)]))
  .describe('Location: a string is an object field, an integer a zero-based array index; [] is the root.');
export type JsonPath = z.infer<typeof JsonPathSchema>;

export const ViolationSchema = z.object({
  description: z.string().describe('In English words, for tools and logs.'),
  json_path: JsonPathSchema,
  level: z.enum(['warning', 'error']),
  // Optional in the schema so that a console reads agents that predate codes; this agent always sends both.
  code: MessageCodeSchema.optional(),
  params: MessageParamsSchema.optional(),
});
export type Violation = z.infer<typeof ViolationSchema>;

export const ValidationResultSchema = z.object({
  status: z.enum(['passed', 'failed']),
  violations: z.array(ViolationSchema),
});
export type ValidationResult = z.infer<typeof ValidationResultSchema>;

export const error = (json_path: JsonPath, message: AgentMessage): Violation => ({ json_path, description: message.text, level: 'error', code: message.code, params: message.params });
export const warning = (json_path: JsonPath, message: AgentMessage): Violation => ({ json_path, description: message.text, level: 'warning', code: message.code, params: message.params });
export { say };

/** Human name of a JSON value's type, in the words used by the messages. */
export function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'string') return `the text ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (typeof value === 'number') return Number.isInteger(value) ? `the number ${value}` : `the number ${value}`;
  if (typeof value === 'boolean') return `${value}`;
  if (typeof value === 'object') return 'an object';
  return typeof value;
}

const TYPE_WORDS: Record<string, string> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object',
};

export function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let node: unknown = root;
  for (const key of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<PropertyKey, unknown>)[key];
  }
  return node;
}

function fieldLabel(path: JsonPath): string {
  for (let i = path.length - 1; i >= 0; i -= 1) {
    const part = path[i];
    if (typeof part === 'string') return part;
  }
  return 'the configuration';
}

/** Levenshtein distance, for "did you mean" hints on misspelt field names. */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i += 1) {
    let previous = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j += 1) {
      const current = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, previous + (a[i - 1]!.toLowerCase() === b[j - 1]!.toLowerCase() ? 0 : 1));
      previous = current;
    }
  }
  return row[b.length]!;
}

export function closest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const d = distance(word, candidate);
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return bestDistance <= Math.max(2, Math.floor(word.length / 3)) ? best : undefined;
}

/** Field names a strict object accepts, read from the schema that rejected an unknown key. */
export type KnownKeysLookup = (path: JsonPath) => readonly string[];

function toJsonPath(path: readonly PropertyKey[]): JsonPath {
  return path.map((part) => (typeof part === 'number' ? part : String(part)));
}

/** Turns zod issues into violations; `input` is the document that was parsed. */
/** A JSON value as it reads in the document, short: "abc", 5, true, null, […], {…} (for templates in any language). */
export function shownValue(value: unknown): string {
  if (Array.isArray(value)) return '[…]';
  if (value !== null && typeof value === 'object') return '{…}';
  if (value === undefined) return '—';
  const text = JSON.stringify(typeof value === 'string' && value.length > 40 ? `${value.slice(0, 40)}…` : value);
  return text ?? String(value);
}

/** The value's parameters for a template: `actual` in English words, `shown` as it reads in the document. */
const valueParams = (value: unknown) => ({ actual: describeType(value), shown: shownValue(value) });

/** Turns zod issues into violations; `input` is the document that was parsed. */
export function violationsFromIssues(issues: readonly z.core.$ZodIssue[], input: unknown, knownKeys?: KnownKeysLookup): Violation[] {
  const out: Violation[] = [];
  for (const issue of issues) {
    const path = toJsonPath(issue.path);
    const value = valueAt(input, issue.path);
    const field = fieldLabel(path);
    switch (issue.code) {
      case 'invalid_type':
        if (value === undefined) out.push(error(path, say('schema.required', '{field} is required but missing.', { field })));
        else out.push(error(path, say('schema.wrong_type', '{field} must be {expected}, but it is {actual}.', { field, expected: TYPE_WORDS[issue.expected] ?? issue.expected, expected_type: issue.expected, ...valueParams(value) })));
        break;
      case 'unrecognized_keys':
        for (const key of issue.keys) out.push(error([...path, key], unknownField(key, knownKeys?.(path) ?? [])));
        break;
      case 'invalid_union': {
        const discriminated = issue as z.core.$ZodIssueInvalidUnion & { discriminator?: string; options?: unknown[] };
        if (discriminated.discriminator) {
          // A defaulted discriminator (transmit_type) lists undefined among its values: not a choice to offer.
          const options = (discriminated.options ?? []).filter((option) => option !== undefined && option !== null).map(String);
          out.push(error(path, oneOf(field, value, options, options.join(', '))));
        } else {
          // A plain union (e.g. field_names as list or text): report the first branch's issues.
          // zod gives the branch's issues paths relative to the union's place in the document.
          const first = issue.errors[0]?.map((inner) => ({ ...inner, path: [...issue.path, ...inner.path] }));
          if (first && first.length > 0) out.push(...violationsFromIssues(first, input, knownKeys));
          else out.push(error(path, say('schema.unexpected_form', '{field} has an unexpected form.', { field })));
        }
        break;
      }
      case 'invalid_value': {
        const options = issue.values.map((v) => JSON.stringify(v));
        if (options.length === 1) out.push(error(path, say('schema.must_equal', '{field} must be {option}, but it is {actual}.', { field, option: options[0]!, ...valueParams(value) })));
        else out.push(error(path, oneOf(field, value, issue.values.map(String), options.join(', '))));
        break;
      }
      case 'too_small':
        out.push(error(path, tooSmall(issue, field, value)));
        break;
      case 'too_big':
        if (issue.origin === 'string') {
          const max = Number(issue.maximum);
          out.push(error(path, max === 1 ? say('schema.too_long_one', '{field} must be at most {max} character long, but it is {actual}.', { field, max, ...valueParams(value) }) : say('schema.too_long', '{field} must be at most {max} characters long, but it is {actual}.', { field, max, ...valueParams(value) })));
        } else out.push(error(path, say('schema.too_big', '{field} must be at most {max}, but it is {actual}.', { field, max: Number(issue.maximum), ...valueParams(value) })));
        break;
      case 'not_multiple_of':
        out.push(error(path, say('schema.not_multiple_of', '{field} must be a multiple of {divisor}.', { field, divisor: Number(issue.divisor) })));
        break;
      default:
        out.push(error(path, say('schema.other', '{field}: {text}', { field, text: issue.message })));
    }
  }
  return out;
}

function unknownField(key: string, known: readonly string[]): AgentMessage {
  const hint = closest(key, known);
  if (hint) return say('schema.unknown_field_hint', 'Unknown field "{key}". Did you mean "{hint}"?', { key, hint });
  if (known.length > 0) return say('schema.unknown_field_allowed', 'Unknown field "{key}". Allowed fields: {allowed}.', { key, allowed: known.join(', ') });
  return say('schema.unknown_field', 'Unknown field "{key}".', { key });
}

/** "x is …; it must be one of …", with a "did you mean" when a choice is close to the text given. */
function oneOf(field: string, value: unknown, choices: readonly string[], options: string): AgentMessage {
  if (value === undefined) return say('schema.choice_missing', '{field} is missing; it must be one of {options}.', { field, options });
  const hint = typeof value === 'string' ? closest(value, choices) : undefined;
  if (hint) return say('schema.choice_invalid_hint', '{field} is {actual}; it must be one of {options}. Did you mean "{hint}"?', { field, options, hint, ...valueParams(value) });
  return say('schema.choice_invalid', '{field} is {actual}; it must be one of {options}.', { field, options, ...valueParams(value) });
}

function tooSmall(issue: z.core.$ZodIssueTooSmall, field: string, value: unknown): AgentMessage {
  if (issue.origin === 'array') {
    // A schema's own words ("a stream is needed") are kept as they are.
    if (issue.message.startsWith('a ') || issue.message.startsWith('an ')) return say('schema.too_few_items_custom', '{text}.', { field, text: capitalize(issue.message) });
    const min = Number(issue.minimum);
    return min === 1 ? say('schema.too_few_items_one', '{field} needs at least {min} item.', { field, min }) : say('schema.too_few_items', '{field} needs at least {min} items.', { field, min });
  }
  if (issue.origin === 'string') return say('schema.empty', '{field} must not be empty.', { field });
  return say('schema.too_small', '{field} must be at least {min}, but it is {actual}.', { field, min: Number(issue.minimum), ...valueParams(value) });
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Orders violations by their position in the document, errors before warnings at the same place. */
export function sortViolations(violations: Violation[]): Violation[] {
  const key = (p: JsonPath) => p.map((part) => (typeof part === 'number' ? String(part).padStart(6, '0') : part)).join('\u0000');
  return [...violations].sort((a, b) => {
    const byPath = key(a.json_path) < key(b.json_path) ? -1 : key(a.json_path) > key(b.json_path) ? 1 : 0;
    if (byPath !== 0) return byPath;
    return a.level === b.level ? 0 : a.level === 'error' ? -1 : 1;
  });
}

/** The same violation reported twice (e.g. by schema and rule) is listed once. */
export function dedupeViolations(violations: readonly Violation[]): Violation[] {
  const seen = new Set<string>();
  return violations.filter((v) => {
    const key = `${v.level}|${JSON.stringify(v.json_path)}|${v.description}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** True when any violation is an error (warnings alone leave a document valid). */
export const hasErrors = (violations: readonly Violation[]) => violations.some((v) => v.level === 'error');

