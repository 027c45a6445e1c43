/**
 * The legacy counter_event_string transform: named by the product family's meta API, accepted for compatibility,
 * not run (registered in transforms/index.ts). Validation says so with a warning, never silently.
 */
import { transformDescriptor } from '../descriptor.js';
import { legacyTransform } from '../parts.js';
import { warning, say } from '../../violations.js';

export const CounterEventStringTransformSchema = legacyTransform('counter_event_string', 'Legacy: counts events named by a string column.');

export const counterEventStringTransform = transformDescriptor({
  type: 'counter_event_string',
  schema: CounterEventStringTransformSchema,
  rules: (_transform, base) => [
    warning([...base, 'transform_type'], say('counter_event_string.counter_event_string_legacy_transform_tributary', 'counter_event_string is a legacy transform Tributary cannot run: this transform will be skipped (records pass through unchanged).')),
  ],
  docs: 'docs/compatibility.md',
  meta: { order: 1, name: 'Counter: event string' },
});
