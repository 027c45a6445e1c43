/**
 * Violations: what validation reports, and the translation of zod issues into messages a plant
 * engineer understands, each at the exact json_path of the offending value.
 */
import { z } from 'zod';

export const JsonPathSchema = z
  .array(z.union([z.string(), z.number().int().min(0)]))
  .describe('Location: a string is an object field, an integer a zero-based array index; [] is the root.');
export type JsonPath = z.infer<typeof JsonPathSchema>;

export const ViolationSchema = z.object({
  description: z.string(),
  json_path: JsonPathSchema,
  level: z.enum(['warning', 'error']),
});
export type Violation = z.infer<typeof ViolationSchema>;

export const ValidationResultSchema = z.object({
  status: z.enum(['passed', 'failed']),
  violations: z.array(ViolationSchema),
});
export type ValidationResult = z.infer<typeof ValidationResultSchema>;

export const error = (json_path: JsonPath, description: string): Violation => ({ json_path, description, level: 'error' });
export const warning = (json_path: JsonPath, description: string): Violation => ({ json_path, description, level: 'warning' });

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
export function violationsFromIssues(issues: readonly z.core.$ZodIssue[], input: unknown, knownKeys?: KnownKeysLookup): Violation[] {
  const out: Violation[] = [];
  for (const issue of issues) {
    const path = toJsonPath(issue.path);
    const value = valueAt(input, issue.path);
    const label = fieldLabel(path);
    switch (issue.code) {
      case 'invalid_type': {
        if (value === undefined) {
          out.push(error(path, `${label} is required but missing.`));
        } else {
          const expected = TYPE_WORDS[issue.expected] ?? issue.expected;
          out.push(error(path, `${label} must be ${expected}, but it is ${describeType(value)}.`));
        }
        break;
      }
      case 'unrecognized_keys':
        for (const key of issue.keys) {
          const hint = knownKeys ? closest(key, knownKeys(path)) : undefined;
          const known = knownKeys?.(path) ?? [];
          const listing = known.length > 0 ? ` Allowed fields: ${known.join(', ')}.` : '';
          out.push(error([...path, key], `Unknown field "${key}".${hint ? ` Did you mean "${hint}"?` : listing}`));
        }
        break;
      case 'invalid_union': {
        const discriminated = issue as z.core.$ZodIssueInvalidUnion & { discriminator?: string; options?: unknown[] };
        if (discriminated.discriminator) {
          // A defaulted discriminator (transmit_type) lists undefined among its values: not a choice to offer.
          const options = (discriminated.options ?? []).filter((option) => option !== undefined && option !== null).map(String);
          const given = value === undefined ? 'missing' : `${describeType(value)}`;
          const hint = typeof value === 'string' ? closest(value, options) : undefined;
          out.push(
            error(
              path,
              `${label} is ${given}; it must be one of ${options.join(', ')}.${hint ? ` Did you mean "${hint}"?` : ''}`,
            ),
          );
        } else {
          // A plain union (e.g. field_names as list or text): report the first branch's issues.
          // zod gives the branch's issues paths relative to the union's place in the document.
          const first = issue.errors[0]?.map((inner) => ({ ...inner, path: [...issue.path, ...inner.path] }));
          if (first && first.length > 0) out.push(...violationsFromIssues(first, input, knownKeys));
          else out.push(error(path, `${label} has an unexpected form.`));
        }
        break;
      }
      case 'invalid_value': {
        const options = issue.values.map((v) => JSON.stringify(v));
        const hint = typeof value === 'string' ? closest(value, issue.values.map(String)) : undefined;
        out.push(
          error(
            path,
            options.length === 1
              ? `${label} must be ${options[0]}, but it is ${describeType(value)}.`
              : `${label} is ${describeType(value)}; it must be one of ${options.join(', ')}.${hint ? ` Did you mean "${hint}"?` : ''}`,
          ),
        );
        break;
      }
      case 'too_small': {
        if (issue.origin === 'array') {
          const min = Number(issue.minimum);
          out.push(error(path, issue.message.startsWith('a ') || issue.message.startsWith('an ') ? `${capitalize(issue.message)}.` : `${label} needs at least ${min} item${min === 1 ? '' : 's'}.`));
        } else if (issue.origin === 'string') {
          out.push(error(path, `${label} must not be empty.`));
        } else {
          out.push(error(path, `${label} must be at least ${String(issue.minimum)}, but it is ${describeType(value)}.`));
        }
        break;
      }
      case 'too_big':
        if (issue.origin === 'string') out.push(error(path, `${label} must be at most ${String(issue.maximum)} character${Number(issue.maximum) === 1 ? '' : 's'} long, but it is ${describeType(value)}.`));
        else out.push(error(path, `${label} must be at most ${String(issue.maximum)}, but it is ${describeType(value)}.`));
        break;
      case 'not_multiple_of':
        out.push(error(path, `${label} must be a multiple of ${String(issue.divisor)}.`));
        break;
      default:
        out.push(error(path, `${label}: ${issue.message}`));
    }
  }
  return out;
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

