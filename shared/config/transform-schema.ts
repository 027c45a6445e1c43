/**
 * Transform schemas, apart from the rest of the configuration contract (schema.ts re-exports them):
 * parse threads build their transforms from these and would otherwise build every receiver and
 * transmit schema too (~4 MB of each thread's memory: docs/performance.md, Memory of the running
 * agent). Each transform type is a folder under transforms/, registered in transforms/index.ts.
 */
import { z } from 'zod';
import { TRANSFORM_SCHEMAS } from './transforms/derive.js';

export * from './transforms/index.js';
export { TRANSFORM_TYPES } from './transforms/derive.js';

/** One block per transform type, from the registry (transforms/index.ts). */
export const TransformSchema = z.discriminatedUnion('transform_type', TRANSFORM_SCHEMAS);
