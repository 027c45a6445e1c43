/** The rename transform, as the configuration code sees it (registered in transforms/index.ts). */
import { transformDescriptor } from '../descriptor.js';
import { RenameTransformSchema } from './schema.js';

export const renameTransform = transformDescriptor({
  type: 'rename',
  schema: RenameTransformSchema,
  docs: 'docs/data-path.md',
  meta: { order: 4, name: 'Rename columns', template: { renames: {} } },
});
