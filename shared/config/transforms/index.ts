/**
 * The transform registry of the configuration side: one line per transform type. The schema union,
 * TRANSFORM_TYPES and the rule dispatch derive from this list (derive.ts; docs/architecture.md, "How
 * to add a transform"). The agent's twin is electron/agent/catalog/built-in.ts.
 */
import { convertTimestampsTransform } from './convert-timestamps/index.js';
import { renameTransform } from './rename/index.js';
import { filterTransform } from './filter/index.js';
import { checksumRecordTransform } from './checksum-record/index.js';
import { counterAssignColumnTransform } from './counter-assign-column/index.js';
import { counterEventStringTransform } from './counter-event-string/index.js';
import { pandasTransform } from './pandas/index.js';

export * from './convert-timestamps/schema.js';
export * from './rename/schema.js';
export * from './filter/schema.js';
export * from './checksum-record/schema.js';
export { CounterAssignColumnTransformSchema } from './counter-assign-column/index.js';
export { CounterEventStringTransformSchema } from './counter-event-string/index.js';
export { PandasTransformSchema } from './pandas/index.js';
export type { TransformDescriptor, TransformRuleChecks } from './descriptor.js';

/** In the order the JSON Schema lists them (the OpenAPI document and the editor keep this order). */
export const TRANSFORM_DESCRIPTORS = [
  convertTimestampsTransform,
  renameTransform,
  filterTransform,
  checksumRecordTransform,
  counterAssignColumnTransform,
  counterEventStringTransform,
  pandasTransform,
] as const;
