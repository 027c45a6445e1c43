/** `filter`: keeps or drops records by one condition on one column. */
import type { z } from 'zod';
import type { FilterTransformSchema } from '../../../../shared/config/schema.js';
import type { FieldValue } from '../../../../shared/records/record.js';
import type { RecordTransform } from '../../components/contract.js';

export type FilterConfig = z.infer<typeof FilterTransformSchema>;
type ConfigValue = FilterConfig['value'];
type Scalar = string | number | boolean | null;

/** A number, or numeric text, as a number; undefined for anything else. */
function asNumber(value: Scalar): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  return undefined;
}

/**
 * Orders two values: numerically when the cell is a number and the other reads as one (or the
 * other way round), lexically when both are text; undefined when they cannot be compared.
 */
function compare(cell: Scalar, value: Scalar): number | undefined {
  if (typeof cell === 'number' || typeof value === 'number') {
    const a = asNumber(cell);
    const b = asNumber(value);
    return a === undefined || b === undefined ? undefined : a - b;
  }
  if (typeof cell === 'string' && typeof value === 'string') return cell < value ? -1 : cell > value ? 1 : 0;
  return undefined;
}

function equals(cell: Scalar, value: Scalar): boolean {
  if (cell === null || value === null || typeof cell === 'boolean' || typeof value === 'boolean') return cell === value;
  return compare(cell, value) === 0;
}

const asList = (value: ConfigValue): Scalar[] => (Array.isArray(value) ? value : value === undefined ? [] : [value]);
const asScalar = (value: ConfigValue): Scalar => (Array.isArray(value) ? (value[0] ?? null) : (value ?? null));

/** Whether a record with this column value meets the condition. A missing column meets none. */
export function meetsCondition(config: Pick<FilterConfig, 'op' | 'value'>, present: boolean, cell: FieldValue): boolean {
  if (config.op === 'exists') return present && cell !== null;
  if (!present) return false;
  const value = asScalar(config.value);
  switch (config.op) {
    case 'eq':
      return equals(cell, value);
    case 'ne':
      return !equals(cell, value);
    case 'lt':
    case 'lte':
    case 'gt':
    case 'gte': {
      const order = compare(cell, value);
      if (order === undefined) return false;
      return config.op === 'lt' ? order < 0 : config.op === 'lte' ? order <= 0 : config.op === 'gt' ? order > 0 : order >= 0;
    }
    case 'in':
      return asList(config.value).some((item) => equals(cell, item));
    case 'nin':
      return !asList(config.value).some((item) => equals(cell, item));
    case 'contains':
      return cell !== null && typeof cell !== 'boolean' && String(cell).includes(String(value));
    case 'startswith':
      return cell !== null && typeof cell !== 'boolean' && String(cell).startsWith(String(value));
  }
}

/** Creates the transform: `keep` passes the records that meet the condition, `drop` removes them. */
export function createFilterTransform(config: FilterConfig): RecordTransform {
  return {
    name: config.transform_name,
    apply(records) {
      const kept = records.filter((record) => {
        const present = Object.hasOwn(record.fieldvalues, config.field_name);
        const meets = meetsCondition(config, present, present ? record.fieldvalues[config.field_name]! : null);
        return config.action === 'drop' ? !meets : meets;
      });
      return { records: kept, problems: [] };
    },
  };
}
