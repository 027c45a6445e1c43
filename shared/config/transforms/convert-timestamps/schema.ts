/** The convert_timestamps transform's block. */
import { z } from 'zod';
import { timeZoneName } from '../../schema-parts.js';
import { transformCommon } from '../parts.js';

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
