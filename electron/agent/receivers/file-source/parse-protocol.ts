import type { FieldValue } from '../../../../shared/records/record.js';

/** A chunk to parse: read from `path` at `offset`, or given as `bytes` (remote files). */
export interface ParseRequest {
  id: number;
  path: string;
  bytes?: Uint8Array;
  fileSize?: number;
  offset: number;
  chunkBytes: number;
  parser: unknown;
  state: unknown;
  /** The file is complete: a last line without a newline may be read. */
  final: boolean;
}

export interface ParsedRowMessage {
  fieldvalues: Record<string, FieldValue>;
  /** Epoch microseconds as text (bigint does not cross threads), or null. */
  timestampMicros: string | null;
  line: number;
}

export type ParseResponse =
  | {
      id: number;
      ok: true;
      rows: ParsedRowMessage[];
      badLines: { line: number; message: string }[];
      skippedLines: number;
      consumedBytes: number;
      chunkBytes: number;
      fileSize: number;
      state: unknown;
      fatal?: { line: number; message: string };
    }
  | { id: number; ok: false; error: string; code?: string; thread: number };
