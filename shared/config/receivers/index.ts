/**
 * The receiver registry of the configuration side: one line per protocol. The schema union,
 * RECEIVER_PROTOCOLS, the rule dispatch, the templates and snippets and the product-family sentences
 * derive from this list (derive.ts; docs/architecture.md, "How to add a receiver"). The agent's twin
 * is electron/agent/catalog/built-in.ts.
 */
import { localfileReceiver } from './localfile/index.js';
import { smbReceiver } from './smb/index.js';
import { sqlReceiver } from './sql/index.js';
import { opcuaReceiver } from './opcua/index.js';
import { mqttReceiver } from './mqtt/index.js';
import { modbusReceiver } from './modbus/index.js';
import { s7Receiver } from './s7/index.js';

export * from './localfile/schema.js';
export * from './smb/schema.js';
export * from './sql/schema.js';
export * from './opcua/schema.js';
export * from './modbus/schema.js';
export * from './s7/schema.js';
export type { ReceiverDescriptor, ReceiverFiles, ReceiverRuleChecks, ReceiverTemplate } from './descriptor.js';

/** In the order the JSON Schema lists them (the OpenAPI document and the editor keep this order). */
export const RECEIVER_DESCRIPTORS = [localfileReceiver, smbReceiver, sqlReceiver, opcuaReceiver, mqttReceiver, modbusReceiver, s7Receiver] as const;
