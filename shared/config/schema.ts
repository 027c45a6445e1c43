/**
 * The configuration contract: one zod schema per block of the configuration document.
 * Everything else derives from these schemas: TypeScript types (z.infer), the JSON Schema served by
 * /v1/meta and /v1/openapi.json, the console editor's completion and hover docs, and the structural
 * half of validation (see validate.ts for the semantic half). Field names follow the spec verbatim.
 */
import { z } from 'zod';
import { TransformSchema } from './transform-schema.js';
import { DataQualitySchema } from './data-quality-schema.js';
import { ParserSchema } from './receiver-parts.js';
import { RECEIVER_SCHEMAS } from './receivers/derive.js';
import { SightMachineCloudSchema, type Transmit, TransmitSchema } from './transmit-schema.js';

export * from './transmit-schema.js';
export * from './transform-schema.js';
export * from './data-quality-schema.js';
export { TIME_ZONE_FORMAT } from './schema-parts.js';
export * from './receiver-parts.js';
export * from './receivers/index.js';
export { RECEIVER_PROTOCOLS, type ReceiverProtocol } from './receivers/derive.js';

// ---------------------------------------------------------------- receivers

/** One block per receiver protocol, from the registry (receivers/index.ts). */
export const DataReceiverSchema = z.discriminatedUnion('protocol', RECEIVER_SCHEMAS);

// ---------------------------------------------------------------- document

export const ConfigurationSchema = z
  .strictObject({
    data_receiver: z.array(DataReceiverSchema).default([]).describe('Sources to read.'),
    transforms: z.array(TransformSchema).default([]).describe('Changes applied to records, in list order.'),
    data_transmit: z.array(TransmitSchema).default([]).describe('Where records are sent.'),
    sight_machine_cloud: SightMachineCloudSchema.optional(),
    data_quality: DataQualitySchema.optional(),
  })
  .describe('Tributary agent configuration.');

/** A configuration as written, defaults filled in (what validation parses). */
export type ConfigurationDocument = z.infer<typeof ConfigurationSchema>;
/** A configuration as the agent runs it: transmits' credentials resolved (validate.ts). */
export type Configuration = Omit<ConfigurationDocument, 'data_transmit'> & { data_transmit: Transmit[] };
export type ConfigurationInput = z.input<typeof ConfigurationSchema>;
export type DataReceiver = z.infer<typeof DataReceiverSchema>;
export type Transform = z.infer<typeof TransformSchema>;
export type Parser = z.infer<typeof ParserSchema>;

/** Keys whose values are credentials: masked on read, kept on the mask sentinel, never logged. */
export const SECRET_KEYS: ReadonlySet<string> = new Set(['password', 'API_key', 'api_key', 'token']);
/** What GET /v1/config shows instead of a secret; sending it back keeps the stored value. */
export const SECRET_MASK = '********';

/** JSON Schema of the whole configuration document (input form: defaults are optional). */
export function configurationJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(ConfigurationSchema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
}
