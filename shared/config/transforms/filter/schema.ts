/** The filter transform's block. */
import { z } from 'zod';
import { transformCommon } from '../parts.js';

export const FILTER_OPS = ['eq', 'ne', 'lt', 'lte', 'gt', 'gte', 'in', 'nin', 'contains', 'startswith', 'exists'] as const;

export const FilterTransformSchema = z
  .strictObject({
    ...transformCommon,
    transform_type: z.literal('filter'),
    field_name: z.string().min(1).describe('Column the condition looks at.'),
    op: z.enum(FILTER_OPS).describe('eq ne lt lte gt gte in nin contains startswith exists'),
    value: z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(z.union([z.string(), z.number()]))]).optional().describe('Value compared with the column (a list for in / nin; not used by exists).'),
    action: z.enum(['keep', 'drop']).default('keep').describe('keep: only rows that meet the condition pass; drop: rows that meet it are removed.'),
  })
  .describe('Keeps or drops rows by a simple condition on one column.');
