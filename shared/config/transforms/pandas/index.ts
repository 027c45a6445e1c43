/**
 * The legacy pandas transform: named by the product family's meta API, accepted for compatibility,
 * not run (registered in transforms/index.ts). Validation says so with a warning, never silently.
 */
import { transformDescriptor } from '../descriptor.js';
import { legacyTransform } from '../parts.js';
import { warning, say } from '../../violations.js';

export const PandasTransformSchema = legacyTransform('pandas', 'Legacy: Python pandas code; Tributary cannot run it.');

export const pandasTransform = transformDescriptor({
  type: 'pandas',
  schema: PandasTransformSchema,
  rules: (_transform, base) => [
    warning([...base, 'transform_type'], say('pandas.pandas_transforms_run_python', 'pandas transforms run Python code, which Tributary cannot run: this transform will be skipped (records pass through unchanged).')),
  ],
  docs: 'docs/compatibility.md',
  meta: { order: 2, name: 'pandas (not supported)' },
});
