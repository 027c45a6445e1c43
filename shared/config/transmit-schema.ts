/**
 * Transmits and the product family's top-level `sight_machine_cloud` block, whose base_url and key
 * pair a remotedatapost transmit falls back to when it does not set its own (resolved by
 * `resolveConfiguration` in validate.ts; semantic rules say what is missing where). Each transmit type
 * is a folder under transmits/, registered in transmits/index.ts.
 */
import { z } from 'zod';
import type { MqttTransmitSchema } from './transmits/mqtt/schema.js';
import type { CsvTransmitSchema, RemoteDataPostTransmitSchema } from './transmits/index.js';
import { TRANSMIT_SCHEMAS } from './transmits/derive.js';

export { FilterStreamSchema } from './schema-parts.js';
export * from './transmits/index.js';
export { TRANSMIT_TYPES, type TransmitType } from './transmits/derive.js';

/** One block per transmit type, from the registry (transmits/index.ts). */
export const TransmitSchema = z.discriminatedUnion('transmit_type', TRANSMIT_SCHEMAS);

/** A transmit as written (credentials may come from sight_machine_cloud). */
export type TransmitDocument = z.infer<typeof TransmitSchema>;
/** A remotedatapost transmit as it runs: its credentials resolved. */
export type RemoteDataPostTransmit = z.infer<typeof RemoteDataPostTransmitSchema> & { base_url: string; API_key: string; API_key_ID: string };
export type CsvTransmit = z.infer<typeof CsvTransmitSchema>;
export type MqttTransmit = z.infer<typeof MqttTransmitSchema>;
/** A transmit as it runs: remotedatapost with its credentials resolved, the others as written. */
export type Transmit = Exclude<TransmitDocument, z.infer<typeof RemoteDataPostTransmitSchema>> | RemoteDataPostTransmit;
