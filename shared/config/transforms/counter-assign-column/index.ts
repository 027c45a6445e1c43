/**
 * The legacy counter_assign_column transform: named by the product family's meta API, accepted for compatibility,
 * not run (registered in transforms/index.ts). Validation says so with a warning, never silently.
 */
import { transformDescriptor } from '../descriptor.js';
import { legacyTransform } from '../parts.js';
import { warning, say } from '../../violations.js';

export const CounterAssignColumnTransformSchema = legacyTransform('counter_assign_column', 'Legacy: assigns a counter column.');

export const counterAssignColumnTransform = transformDescriptor({
  type: 'counter_assign_column',
  schema: CounterAssignColumnTransformSchema,
  rules: (_transform, base) => [
    warning([...base, 'transform_type'], say('counter_assign_column.counter_assign_column_legacy_transform_tributary', 'counter_assign_column is a legacy transform Tributary cannot run: this transform will be skipped (records pass through unchanged). The spreadsheet parser\'s options.counter adds a running counter column.')),
  ],
  docs: 'docs/compatibility.md',
  meta: { order: 0, name: 'Counter: assign column' },
});
