/**
 * The receiver registry of the configuration side: one line per protocol. The schema union,
 * RECEIVER_PROTOCOLS, the rule dispatch and the product-family sentences derive from this list
 * (docs/architecture.md, "Adding a receiver"; the agent's twin is electron/agent/receivers/index.ts).
 */
import type { z } from 'zod';
import type { ReceiverDescriptor } from './descriptor.js';
import { localfileReceiver } from './localfile/index.js';
import { smbReceiver } from './smb/index.js';
import { sqlReceiver } from './sql/index.js';
import { opcuaReceiver } from './opcua/index.js';
import { mqttReceiver } from './mqtt/index.js';

export * from './localfile/schema.js';
export * from './smb/schema.js';
export * from './sql/schema.js';
export * from './opcua/schema.js';
export type { DataReceiverInput, ReceiverDescriptor, ReceiverRuleChecks, ReceiverTemplate } from './descriptor.js';

/** In the order the JSON Schema lists them (the OpenAPI document and the editor keep this order). */
export const RECEIVER_DESCRIPTORS = [localfileReceiver, smbReceiver, sqlReceiver, opcuaReceiver, mqttReceiver] as const;

type Descriptors = typeof RECEIVER_DESCRIPTORS;
// A generic mapped type keeps the tuple (a mapped type over a concrete tuple would not).
type SchemasOf<T> = { -readonly [K in keyof T]: T[K] extends { schema: infer S } ? S : never };
type Schemas = SchemasOf<Descriptors>;
/** A protocol value some receiver has. */
export type ReceiverProtocol = z.infer<Schemas[number]>['protocol'];

/** The receivers' schemas in registry order, typed as the tuple z.discriminatedUnion needs. */
export const RECEIVER_SCHEMAS = RECEIVER_DESCRIPTORS.map((d) => d.schema) as unknown as Schemas;

/** Every protocol value, in registry order. */
export const RECEIVER_PROTOCOLS = RECEIVER_DESCRIPTORS.map((d) => d.protocol) as readonly ReceiverProtocol[];

/** The descriptor of a protocol value, or undefined for a protocol no receiver has. */
export function receiverDescriptorOf(protocol: string): ReceiverDescriptor<z.ZodObject> | undefined {
  return (RECEIVER_DESCRIPTORS as readonly ReceiverDescriptor<z.ZodObject>[]).find((d) => d.protocol === protocol);
}

/** "localfile, smb, sql, opcua and mqtt": the protocols as a sentence names them. */
export function receiverProtocolList(): string {
  const names = RECEIVER_DESCRIPTORS.map((d) => d.protocol);
  return names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}
