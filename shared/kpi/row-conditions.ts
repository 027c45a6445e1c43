/**
 * Row conditions: per record, the first case that holds gives the dependency's value (its `then`),
 * else the `else` result, else the mapped field itself. `then`/`else` are literals or expressions over
 * raw field names (`column['raw name']` for names with whitespace). Pure; used by the rules (what
 * value types fit an op) and by evaluation.
 */
import type { FieldValue } from '../records/record.js';
import type { Expression } from './formula-ast.js';
import { asNumber, evaluateFormula, type FormulaValue } from './formula-evaluate.js';
import { parseFormula, type ParseResult } from './formula-parser.js';
import type { RowConditionOp, RowConditions } from './schema.js';

type Scalar = string | number | boolean | null;

/** What `value` must be for an op, in the words of the messages; undefined when it fits. */
export function valueProblem(op: RowConditionOp, value: unknown): string | undefined {
  const isScalar = (v: unknown) => v === null || ['string', 'number', 'boolean'].includes(typeof v);
  switch (op) {
    case 'lt':
    case 'lte':
    case 'gt':
    case 'gte':
      return typeof value === 'number' ? undefined : `op "${op}" compares numbers: value must be a number`;
    case 'eq':
    case 'ne':
      return isScalar(value) ? undefined : `op "${op}" compares one value: value must be a number, text, true/false or null, not a list or object`;
    case 'in':
    case 'nin':
    case 'overlaps':
      if (!Array.isArray(value) || value.length === 0) return `op "${op}" needs a non-empty list as value, e.g. [1, 2]`;
      return value.every(isScalar) ? undefined : `the list of op "${op}" may hold only numbers, text, true/false or null`;
    case 'startswith':
    case 'contains':
    case 'like':
    case 'notlike':
      return typeof value === 'string' ? undefined : `op "${op}" matches text: value must be text${op === 'like' || op === 'notlike' ? ' (a pattern with % and _)' : ''}`;
    case 'not':
    case 'exists':
      return typeof value === 'boolean' ? undefined : `op "${op}" needs true or false as value`;
  }
}

/** Ops whose value may be left out (exists means "exists: true"). */
export const VALUE_OPTIONAL: readonly RowConditionOp[] = ['exists'];

const NUMERIC_TEXT = /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/;

/** A field value as a number for aggregation: numbers, true/false (1/0), numeric text; else null. */
export function numericValue(value: FieldValue | undefined): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'string' && NUMERIC_TEXT.test(value)) return Number(value);
  return null;
}

function sameValue(a: FieldValue | undefined, b: Scalar): boolean {
  if (a === undefined) return b === null;
  if (a === b) return true;
  if (typeof b === 'number' || typeof a === 'number') {
    const x = numericValue(a);
    const y = numericValue(b);
    return x !== null && y !== null && typeof a !== 'boolean' && typeof b !== 'boolean' && x === y;
  }
  return false;
}

function likePattern(pattern: string): RegExp {
  const source = [...pattern].map((ch) => (ch === '%' ? '[\\s\\S]*' : ch === '_' ? '[\\s\\S]' : ch.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('');
  return new RegExp(`^${source}$`);
}

function asList(value: FieldValue | undefined): Scalar[] {
  if (value === undefined || value === null) return [];
  if (typeof value !== 'string') return [value];
  const text = value.trim();
  if (text.startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (Array.isArray(parsed)) return parsed.filter((v): v is Scalar => v === null || ['string', 'number', 'boolean'].includes(typeof v));
    } catch {
      // Not JSON: read it as a comma-separated list below.
    }
  }
  return text.split(',').map((part) => part.trim());
}

/** Whether one case holds for a field value (undefined: the record has no such field). */
export function caseHolds(op: RowConditionOp, field: FieldValue | undefined, value: unknown): boolean {
  const text = typeof field === 'string' ? field : typeof field === 'number' || typeof field === 'boolean' ? String(field) : undefined;
  switch (op) {
    case 'lt':
    case 'lte':
    case 'gt':
    case 'gte': {
      const x = numericValue(field);
      if (x === null || typeof value !== 'number' || typeof field === 'boolean') return false;
      return op === 'lt' ? x < value : op === 'lte' ? x <= value : op === 'gt' ? x > value : x >= value;
    }
    case 'eq':
      return sameValue(field, value as Scalar);
    case 'ne':
      return !sameValue(field, value as Scalar);
    case 'in':
      return Array.isArray(value) && value.some((v) => sameValue(field, v as Scalar));
    case 'nin':
      return Array.isArray(value) && !value.some((v) => sameValue(field, v as Scalar));
    case 'startswith':
      return text !== undefined && typeof value === 'string' && text.startsWith(value);
    case 'contains':
      return text !== undefined && typeof value === 'string' && text.includes(value);
    case 'like':
      return text !== undefined && typeof value === 'string' && likePattern(value).test(text);
    case 'notlike':
      return !(text !== undefined && typeof value === 'string' && likePattern(value).test(text));
    case 'not': {
      const truth = field !== undefined && field !== null && field !== false && field !== 0 && field !== '';
      return truth !== value;
    }
    case 'exists':
      return (field !== undefined && field !== null) === (value ?? true);
    case 'overlaps':
      return Array.isArray(value) && asList(field).some((item) => value.some((v) => sameValue(item, v as Scalar)));
  }
}

/** Parses a `then`/`else` text as an expression over raw field names. */
export function parseResultExpression(text: string): ParseResult {
  return parseFormula(text, { columns: true });
}

/** Compiled `then`/`else` results, parsed once per evaluation. */
export class ResultCache {
  private readonly parsed = new Map<string, Expression | null>();

  expression(text: string): Expression | null {
    let hit = this.parsed.get(text);
    if (hit === undefined) {
      const result = parseResultExpression(text);
      hit = result.ok ? result.expression : null;
      this.parsed.set(text, hit);
    }
    return hit;
  }
}

function resultValue(result: unknown, fields: Record<string, FieldValue>, cache: ResultCache): number | null {
  if (typeof result === 'number') return Number.isFinite(result) ? result : null;
  if (typeof result === 'boolean') return result ? 1 : 0;
  if (typeof result !== 'string') return null;
  const expression = cache.expression(result);
  if (!expression) return null;
  const lookup = (name: string): FormulaValue | undefined => (name in fields ? numericValue(fields[name]) : undefined);
  return asNumber(evaluateFormula(expression, lookup));
}

/**
 * A record's value for one alias entry: undefined when the record does not carry the mapped field
 * (it does not take part), null when it carries no usable number.
 */
export function aliasValue(entry: { name: string; row_conditions?: RowConditions }, fields: Record<string, FieldValue>, cache: ResultCache): number | null | undefined {
  if (!Object.hasOwn(fields, entry.name)) return undefined;
  const conditions = entry.row_conditions;
  if (!conditions) return numericValue(fields[entry.name]);
  for (const rowCase of conditions.cases) {
    const field = Object.hasOwn(fields, rowCase.name) ? fields[rowCase.name] : undefined;
    if (caseHolds(rowCase.op, field, rowCase.value)) return resultValue(rowCase.then, fields, cache);
  }
  return 'else' in conditions && conditions.else !== undefined ? resultValue(conditions.else, fields, cache) : numericValue(fields[entry.name]);
}
