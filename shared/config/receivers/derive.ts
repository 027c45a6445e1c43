/**
 * What derives from the receiver registry (index.ts). Kept apart from the list so that the list is
 * the only thing a new protocol edits (and the only thing a test swaps to add a fixture protocol).
 */
import type { z } from 'zod';
import type { ReceiverDescriptor, ReceiverFiles } from './descriptor.js';
import { RECEIVER_DESCRIPTORS } from './index.js';

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

/** Where a file receiver's connections keep their files; undefined for a protocol that reads no files. */
export function receiverFilesOf(protocol: string | undefined): ReceiverFiles | undefined {
  return protocol === undefined ? undefined : receiverDescriptorOf(protocol)?.files;
}

/** "localfile, smb, sql, opcua and mqtt": the protocols as a sentence names them. */
export function receiverProtocolList(): string {
  const names = RECEIVER_DESCRIPTORS.map((d) => d.protocol);
  return names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}
