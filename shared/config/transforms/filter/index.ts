/** The filter transform, as the configuration code sees it (registered in transforms/index.ts). */
import { transformDescriptor } from '../descriptor.js';
import { FilterTransformSchema } from './schema.js';
import { filterViolations } from './rules.js';

export const filterTransform = transformDescriptor({
  type: 'filter',
  schema: FilterTransformSchema,
  rules: (transform, base) => filterViolations(transform, base),
  docs: 'docs/data-path.md',
});
