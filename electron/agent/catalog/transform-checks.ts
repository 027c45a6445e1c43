/**
 * The built-in transforms' configuration schemas, by transform_type: what the API thread's registry
 * checks a transform entry with (built-in.ts). Its own module, so that a parse thread, whose
 * entries come checked, starts without zod.
 */
import {
  ChecksumRecordTransformSchema,
  ConvertTimestampsTransformSchema,
  FilterTransformSchema,
  RenameTransformSchema,
} from '../../../shared/config/transform-schema.js';

export const TRANSFORM_CHECKS = {
  convert_timestamps: ConvertTimestampsTransformSchema,
  rename: RenameTransformSchema,
  filter: FilterTransformSchema,
  checksum_record: ChecksumRecordTransformSchema,
};

export type TransformChecks = typeof TRANSFORM_CHECKS;
