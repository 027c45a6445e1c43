/**
 * The contract of the whole-document parsers (excel, json, xml): a reader pulls records from a
 * file a batch at a time, streaming, so that memory stays bounded whatever the file size. The parse
 * thread keeps a reader open between batches (document-sessions.ts) and commits each batch with
 * the number of records read so far, so that a crash loses nothing and repeats nothing.
 */
import fs from 'node:fs';
import type { FieldValue } from '../../../../shared/records/record.js';

/** One record of a document, with where it is (for markers: "sheet Data row 12", "line 3"). */
export interface DocumentRecord {
  fieldvalues: Record<string, FieldValue>;
  place: string;
  /** From the first parse_timestamps field (epoch µs); absent: the capture time. */
  timestampMicros?: bigint;
  /**
   * Where reading can start again right after this record (JSON Lines: the byte after its line,
   * and its line number); absent for formats that can only be read from their start.
   */
  resume?: { byte: number; line: number };
  /**
   * The record's own text (JSON Lines: its line), digested instead of its fields when a rewritten
   * file is compared with what was sent of it (document-state.ts): no JSON.stringify a record.
   */
  text?: string;
}

export interface DocumentReader {
  /**
   * Up to `max` further records; fewer at the end of the document, or when the records' own texts
   * (JSON Lines) reach DOCUMENT_LIMITS.batchChars.
   */
  next(max: number): DocumentRecord[];
  /** All records were read. */
  readonly done: boolean;
  /** Records the reader skipped as bad (with where and why), since the last call. */
  takeProblems(): string[];
  close(): void;
}

/** What the file holds cannot be read (broken zip, XML, JSON): names the place. Stops the file. */
export class DocumentError extends Error {
  constructor(
    readonly place: string,
    message: string,
  ) {
    super(`${place}: ${message}`);
  }
}

/** Bounds every document decoder keeps, whatever a file holds (hardening). */
export const DOCUMENT_LIMITS = {
  /** Nesting of elements or JSON values. */
  maxDepth: 256,
  /** Text of one record (all its fields). */
  maxRecordChars: 8 * 1024 * 1024,
  /** Fields of one record. */
  maxFields: 10_000,
  /** Characters of JSON Lines in one batch (a batch of long lines is cut short there). */
  batchChars: 4 * 1024 * 1024,
  /** Bytes read from the file in one step. */
  readBytes: 64 * 1024,
};

/** Random-access reads of the file, synchronous: parse threads read and parse in one go. */
export interface ByteSource {
  readonly size: number;
  read(offset: number, length: number): Buffer;
  close(): void;
}

export function openFileSource(path: string): ByteSource {
  const fd = fs.openSync(path, 'r');
  let open = true;
  const size = fs.fstatSync(fd).size;
  return {
    size,
    read(offset, length) {
      const buffer = Buffer.allocUnsafe(Math.max(0, Math.min(length, size - offset)));
      let done = 0;
      while (done < buffer.length) {
        const n = fs.readSync(fd, buffer, done, buffer.length - done, offset + done);
        if (n === 0) break;
        done += n;
      }
      return buffer.subarray(0, done);
    },
    close() {
      if (open) fs.closeSync(fd);
      open = false;
    },
  };
}

/** Bytes in memory as a source (previews, tests). */
export function bufferSource(bytes: Buffer): ByteSource {
  return { size: bytes.length, read: (offset, length) => bytes.subarray(offset, offset + length), close: () => undefined };
}

/** Reads a source front to back in steps: the streaming decoders (JSON, XML) take it so. */
export class SequentialBytes {
  constructor(private readonly source: ByteSource, private readonly step = DOCUMENT_LIMITS.readBytes, private offset = 0) {}
  get atEnd(): boolean {
    return this.offset >= this.source.size;
  }
  get position(): number {
    return this.offset;
  }
  nextChunk(): Buffer {
    const chunk = this.source.read(this.offset, this.step);
    this.offset += chunk.length;
    if (chunk.length === 0) this.offset = this.source.size;
    return chunk;
  }
}
