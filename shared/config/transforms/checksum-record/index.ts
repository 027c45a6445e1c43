/** The checksum_record transform, as the configuration code sees it (registered in transforms/index.ts). */
import { transformDescriptor } from '../descriptor.js';
import { ChecksumRecordTransformSchema } from './schema.js';

export const checksumRecordTransform = transformDescriptor({
  type: 'checksum_record',
  schema: ChecksumRecordTransformSchema,
  docs: 'docs/data-path.md',
});
