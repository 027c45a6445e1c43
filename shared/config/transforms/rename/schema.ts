/** The rename transform's block. */
import { z } from 'zod';
import { transformCommon } from '../parts.js';

export const RenameTransformSchema = z
  .strictObject({
    ...transformCommon,
    transform_type: z.literal('rename'),
    renames: z.record(z.string().min(1), z.string().min(1)).describe('Old column name to new column name.'),
  })
  .describe('Renames columns.');
