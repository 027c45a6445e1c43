/**
 * Semantic rules of the `filter` transform that the schema cannot express: which kind of `value`
 * each `op` needs. Pure; reports at the exact json_path to change.
 */
import type { z } from 'zod';
import type { FilterTransformSchema } from './schema.js';
import { type JsonPath, type Violation, describeType, error, warning } from '../../violations.js';

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
      return hasValue ? [error(path, 'op exists takes no value: it only asks whether the column is there and not empty. Remove value.')] : [];
    case 'in':
    case 'nin':
      if (!Array.isArray(value)) return [error(path, `op ${op} needs a list of values, e.g. [1, 2, "A"], but value is ${hasValue ? describeType(value) : 'missing'}.`)];
      return value.length === 0 ? [warning(path, `The list is empty: ${op === 'in' ? 'no record will pass' : 'every record with the column will pass'}.`)] : [];
    case 'lt':
    case 'lte':
    case 'gt':
    case 'gte':
      return typeof value === 'number' || typeof value === 'string'
        ? []
        : [error(path, `op ${op} compares with a number or a text, but value is ${hasValue ? describeType(value) : 'missing'}.`)];
    case 'contains':
    case 'startswith':
      return typeof value === 'number' || typeof value === 'string'
        ? []
        : [error(path, `op ${op} needs a text (or number) to look for, but value is ${hasValue ? describeType(value) : 'missing'}.`)];
    case 'eq':
    case 'ne':
      return hasValue && !Array.isArray(value)
        ? []
        : [error(path, `op ${op} needs one value (text, number, true/false or null), but value is ${hasValue ? describeType(value) : 'missing'}.${Array.isArray(value) ? ` Use op ${op === 'eq' ? 'in' : 'nin'} for a list.` : ''}`)];
  }
}
