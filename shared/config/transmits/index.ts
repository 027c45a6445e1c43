/**
 * The transmit registry of the configuration side: one line per transmit type. The schema union,
 * TRANSMIT_TYPES, the rule dispatch, the templates and snippets, the secret targets and the
 * product-family sentences derive from this list (derive.ts; docs/architecture.md, "How to add a
 * transmit"). The agent's twin is electron/agent/catalog/built-in.ts.
 */
import { remoteDataPostTransmit } from './remotedatapost/index.js';
import { csvTransmit } from './csv/index.js';
import { mqttTransmit } from './mqtt/index.js';
import { sqlTransmit } from './sql/index.js';
import { influxdbTransmit } from './influxdb/index.js';

export * from './remotedatapost/schema.js';
export * from './csv/schema.js';
export * from './sql/schema.js';
export * from './influxdb/schema.js';
export type { TransmitDescriptor, TransmitRuleContext, TransmitTemplate } from './descriptor.js';

/** In the order the JSON Schema lists them (the OpenAPI document and the editor keep this order). */
export const TRANSMIT_DESCRIPTORS = [remoteDataPostTransmit, csvTransmit, mqttTransmit, sqlTransmit, influxdbTransmit] as const;
