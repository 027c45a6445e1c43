/**
 * A receiver's optional preview capability (POST /v1/config/preview): read the first records of an
 * unsaved receiver without touching the store. Each protocol that has one puts it in its own folder
 * (receivers/<protocol>/preview.ts) and registers it beside its service in catalog/built-in.ts;
 * config-preview.ts finds it by protocol, so it has no case per protocol (docs/decisions/0055).
 */
import type { DataReceiver } from '../../../shared/config/schema.js';
import type { StreamKey } from './contract.js';
import type { Logger } from '../logging/logger.js';
import type { RawStreamPreview } from './raw-preview.js';

export interface ReceiverPreviewRequest {
  rows: number;
  nowMicros: bigint;
  logger: Logger;
  agentDataDirectory: string;
  /** The committed state of this (saved) receiver's stream: what its next poll binds (SQL). */
  savedState: (key: StreamKey, column: string) => string | undefined;
}

/** `receiver` has passed the schema and has no error; its type is the protocol's own block. */
export type ReceiverPreview<R = DataReceiver> = (
  receiver: R,
  request: ReceiverPreviewRequest,
) => Promise<RawStreamPreview[]>;

/** How the registry holds a preview: loaded on first use, like the receiver itself. */
export type ReceiverPreviewLoader = () => Promise<{ default: ReceiverPreview<never> }>;
