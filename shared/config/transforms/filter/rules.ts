/**
 * Semantic rules of the `filter` transform that the schema cannot express: which kind of `value`
 * each `op` needs. Pure; reports at the exact json_path to change.
 */
import type { z } from 'zod';
import type { FilterTransformSchema } from './schema.js';
import { type JsonPath, type Violation, describeType, error, say, shownValue, warning } from '../../violations.js';

type FilterTransform = z.infer<typeof FilterTransformSchema>;

/**
 * in / nin need a list; exists takes no value; lt lte gt gte need a number or text; eq ne
 * contains startswith need one value (text, number, true/false or null for eq/ne).
 */
export function filterViolations(t: Pick<FilterTransform, 'op' | 'value'>, base: JsonPath): Violation[] {
  const path: JsonPath = [...base, 'value'];
  const { op, value } = t;
  const hasValue = Object.hasOwn(t, 'value') && value !== undefined;
  switch (op) {
    case 'exists':
      return hasValue ? [error(path, say('filter.op_exists_takes_value', 'op exists takes no value: it only asks whether the column is there and not empty. Remove value.'))] : [];
    case 'in':
    case 'nin':
      if (!Array.isArray(value)) return [error(path, say('filter.op_needs_list_values', 'op {op} needs a list of values, e.g. [1, 2, "A"], but value is {actual}.', { op, ...valueWords(hasValue, value) }))];
      return value.length === 0 ? [warning(path, op === 'in' ? say('filter.in_list_empty', 'The list is empty: no record will pass.') : say('filter.nin_list_empty', 'The list is empty: every record with the column will pass.'))] : [];
    case 'lt':
    case 'lte':
    case 'gt':
    case 'gte':
      return typeof value === 'number' || typeof value === 'string'
        ? []
        : [error(path, say('filter.op_compares_number_text', 'op {op} compares with a number or a text, but value is {actual}.', { op, ...valueWords(hasValue, value) }))];
    case 'contains':
    case 'startswith':
      return typeof value === 'number' || typeof value === 'string'
        ? []
        : [error(path, say('filter.op_needs_text_number', 'op {op} needs a text (or number) to look for, but value is {actual}.', { op, ...valueWords(hasValue, value) }))];
    case 'eq':
    case 'ne':
      return hasValue && !Array.isArray(value)
        ? []
        : [error(path, Array.isArray(value) ? say('filter.op_needs_one_value_list', 'op {op} needs one value (text, number, true/false or null), but value is {actual}. Use op {list_op} for a list.', { op, ...valueWords(hasValue, value), list_op: op === 'eq' ? 'in' : 'nin' }) : say('filter.op_needs_one_value', 'op {op} needs one value (text, number, true/false or null), but value is {actual}.', { op, ...valueWords(hasValue, value) }))];
  }
}

/** The value in English words (`actual`) and as written (`shown`), or missing. */
function valueWords(hasValue: boolean, value: unknown) {
  return hasValue ? { actual: describeType(value), shown: shownValue(value) } : { actual: 'missing', shown: '—' };
}
