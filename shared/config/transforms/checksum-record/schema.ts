/** The checksum_record transform's block. */
import { z } from 'zod';
import { transformCommon } from '../parts.js';

export const CHECKSUM_KEYS = ['asset', 'stream_type', 'timestamp', 'fieldvalues'] as const;

export const ChecksumRecordTransformSchema = z
  .strictObject({
    ...transformCommon,
    transform_type: z.literal('checksum_record'),
    record_keys: z.array(z.enum(CHECKSUM_KEYS)).min(1).default([...CHECKSUM_KEYS]).describe('Parts of the record the checksum covers.'),
    output_field: z.string().min(1).default('factorytx_checksum').describe('Column that receives the checksum (hex SHA-256).'),
  })
  .describe('Adds a stable checksum of the record, for de-duplication downstream. Put it last.');
