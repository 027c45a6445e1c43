/** What every transform's block has (transforms/<type>/schema.ts build on it). */
import { z } from 'zod';
import { FilterStreamSchema } from '../schema-parts.js';

export const transformCommon = {
  transform_name: z.string().min(1, 'transform_name must not be empty'),
  filter_stream: FilterStreamSchema,
};

/** Transform kinds named by the deprecated meta API; accepted for compatibility, not run yet. */
export const legacyTransform = (type: string, description: string) =>
  z.looseObject({ ...transformCommon, transform_type: z.literal(type) }).describe(description);
