/**
 * Transform schemas, apart from the rest of the configuration contract (schema.ts re-exports them):
 * parse threads build their transforms from these and would otherwise build every receiver and
 * transmit schema too (~4 MB of each thread's memory: docs/performance.md, Memory of the running
 * agent).
 */
import { z } from 'zod';
import { FilterStreamSchema, timeZoneName } from './schema-parts.js';

const transformCommon = {
  transform_name: z.string().min(1, 'transform_name must not be empty'),
  filter_stream: FilterStreamSchema,
};

export const ConvertTimestampsTransformSchema = z
  .strictObject({
    ...transformCommon,
    transform_type: z.literal('convert_timestamps'),
    field_names: z.union([z.array(z.string().min(1)), z.string().min(1)]).optional().describe('Columns to convert.'),
    field_name: z.string().min(1).optional().describe('Single column to convert (template form).'),
    timezone: timeZoneName('IANA time zone of the values, e.g. America/Chicago.').optional(),
    format: z.string().min(1).optional().describe('strptime format of text values; not together with unit.'),
    unit: z.enum(['D', 's', 'ms', 'us', 'ns']).optional().describe('Unit of epoch numbers; not together with format.'),
  })
  .describe('Reads time stamps in a local time zone and converts them to UTC.');

export const RenameTransformSchema = z
  .strictObject({
    ...transformCommon,
    transform_type: z.literal('rename'),
    renames: z.record(z.string().min(1), z.string().min(1)).describe('Old column name to new column name.'),
  })
  .describe('Renames columns.');

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

export const CHECKSUM_KEYS = ['asset', 'stream_type', 'timestamp', 'fieldvalues'] as const;

export const ChecksumRecordTransformSchema = z
  .strictObject({
    ...transformCommon,
    transform_type: z.literal('checksum_record'),
    record_keys: z.array(z.enum(CHECKSUM_KEYS)).min(1).default([...CHECKSUM_KEYS]).describe('Parts of the record the checksum covers.'),
    output_field: z.string().min(1).default('factorytx_checksum').describe('Column that receives the checksum (hex SHA-256).'),
  })
  .describe('Adds a stable checksum of the record, for de-duplication downstream. Put it last.');

/** Transform kinds named by the deprecated meta API; accepted for compatibility, not run yet. */
const legacyTransform = (type: string, description: string) =>
  z.looseObject({ ...transformCommon, transform_type: z.literal(type) }).describe(description);

export const CounterAssignColumnTransformSchema = legacyTransform('counter_assign_column', 'Legacy: assigns a counter column.');
export const CounterEventStringTransformSchema = legacyTransform('counter_event_string', 'Legacy: counts events named by a string column.');
export const PandasTransformSchema = legacyTransform('pandas', 'Legacy: Python pandas code; Tributary cannot run it.');

export const TransformSchema = z.discriminatedUnion('transform_type', [
  ConvertTimestampsTransformSchema,
  RenameTransformSchema,
  FilterTransformSchema,
  ChecksumRecordTransformSchema,
  CounterAssignColumnTransformSchema,
  CounterEventStringTransformSchema,
  PandasTransformSchema,
]);
