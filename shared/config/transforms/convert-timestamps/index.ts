/** The convert_timestamps transform, as the configuration code sees it (registered in transforms/index.ts). */
import { transformDescriptor } from '../descriptor.js';
import { ConvertTimestampsTransformSchema } from './schema.js';
import { convertTimestampsViolations } from './rules.js';

export const convertTimestampsTransform = transformDescriptor({
  type: 'convert_timestamps',
  schema: ConvertTimestampsTransformSchema,
  rules: convertTimestampsViolations,
  docs: 'docs/data-path.md',
  meta: { order: 3, name: 'Convert time stamps', template: { field_names: [], timezone: 'UTC' } },
});
