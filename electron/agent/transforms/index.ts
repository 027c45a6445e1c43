/**
 * Transforms: the registry from transform_type to implementation. Adding a transform is a folder
 * and one case here. Types without an implementation (the legacy counter_* and pandas kinds) give
 * undefined: the pipeline skips them (validation already warns about pandas).
 */
import {
  ChecksumRecordTransformSchema,
  ConvertTimestampsTransformSchema,
  FilterTransformSchema,
  RenameTransformSchema,
  type Transform,
} from '../../../shared/config/schema.js';
import { createChecksumRecordTransform } from './checksum-record/checksum-record-transform.js';
import { createConvertTimestampsTransform } from './convert-timestamps/convert-timestamps-transform.js';
import { createFilterTransform } from './filter/filter-transform.js';
import { createRenameTransform } from './rename/rename-transform.js';
import type { RecordTransform } from './transform.js';

export type { RecordTransform, TransformOutput, TransformProblem } from './transform.js';

/**
 * The transform for a config entry, or undefined when its type is not implemented. The entry is
 * parsed again with its own schema: the union's legacy members type transform_type as any string,
 * so the switch alone cannot narrow it (and parsing beats casting).
 */
export function createTransform(config: Transform): RecordTransform | undefined {
  switch (config.transform_type) {
    case 'convert_timestamps':
      return createConvertTimestampsTransform(ConvertTimestampsTransformSchema.parse(config));
    case 'rename':
      return createRenameTransform(RenameTransformSchema.parse(config));
    case 'filter':
      return createFilterTransform(FilterTransformSchema.parse(config));
    case 'checksum_record':
      return createChecksumRecordTransform(ChecksumRecordTransformSchema.parse(config));
    default:
      return undefined;
  }
}
