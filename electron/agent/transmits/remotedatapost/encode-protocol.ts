export interface EncodeRequest {
  id: number;
  /** `encode`: build the bodies of these batches; `ack`: delete them from the outbox (delivered). */
  kind: 'encode' | 'ack';
  storeFile: string;
  transmit: string;
  /** Outbox batch ids, oldest first. */
  ids: number[];
  /** Records in those batches. */
  records: number;
  maxRecords: number;
  /** Request bodies at most this big (max_request_size_bytes, capped at 4 MiB). */
  maxRequestBytes: number;
  apiKey: string;
  useEncryption: boolean;
}

export type EncodeResponse =
  | { id: number; ok: true; bodies: { body: Uint8Array; records: number }[] }
  | { id: number; ok: false; error: string };
