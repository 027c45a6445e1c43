/**
 * Progress of a file read as a whole document (excel, json, xml), kept as its parser state: how
 * many records are committed, a digest of their content, and the key their record ids derive from.
 * A rewritten file whose first records are the same as before (an export saved again with more
 * rows) keeps that key, so that only the new records are sent; one whose content changed is read
 * again under a new key (docs/decisions/0038-document-parsers.md).
 */
import { z } from 'zod';

export const DocumentStateSchema = z.object({
  records: z.number().int().min(0),
  digest: z.string(),
  ids: z.string(),
  /** Set while a rewritten file is compared with what was sent of it before. */
  previous: z.object({ records: z.number().int().min(0), digest: z.string() }).optional(),
  /** Where the next record starts, for formats that can be read from there (JSON Lines). */
  resume: z.object({ byte: z.number().int().min(0), line: z.number().int().min(0) }).optional(),
  /** The file could not be read (a broken document): why, and where. */
  failed: z.string().optional(),
});
export type DocumentState = z.infer<typeof DocumentStateSchema>;

/**
 * The content digest of the records read so far, chained record by record, so that equal digests
 * mean equal records in order whatever the batches were. 64 bits from two 32-bit lanes mixed as
 * cyrb53 mixes them: it tells an export saved again with more rows from a changed one (an accident
 * of 1 in 2^64, never an adversary: whoever writes the file decides what it holds anyway). A
 * cryptographic hash a record (SHA-1, ~3.5 µs) was a third of a JSON Lines reader's time.
 */
export class RecordDigest {
  private h1: number;
  private h2: number;
  constructor(digest: string) {
    // '' (nothing read) and a digest of another form start from the same seeds: the comparison
    // fails, nothing is lost.
    const match = /^([0-9a-f]{8})([0-9a-f]{8})$/.exec(digest);
    this.h1 = match ? Number.parseInt(match[1]!, 16) | 0 : 0x2545f491;
    this.h2 = match ? Number.parseInt(match[2]!, 16) | 0 : 0x6b43a9b5;
  }
  /** One more record: its text (JSON Lines: its line) or its fields. */
  add(record: { text?: string; fieldvalues: unknown }): void {
    const text = record.text ?? JSON.stringify(record.fieldvalues);
    let h1 = this.h1 ^ 0xdeadbeef;
    let h2 = this.h2 ^ 0x41c6ce57;
    for (let i = 0; i < text.length; i += 1) {
      const c = text.charCodeAt(i);
      h1 = Math.imul(h1 ^ c, 2654435761);
      h2 = Math.imul(h2 ^ c, 1597334677);
    }
    this.end(h1, h2, text.length);
  }
  /**
   * add() of a record whose text is these ASCII bytes (the fused path's lines, without decoding
   * them).
   */
  addAscii(bytes: Uint8Array, start: number, end: number): void {
    let h1 = this.h1 ^ 0xdeadbeef;
    let h2 = this.h2 ^ 0x41c6ce57;
    for (let i = start; i < end; i += 1) {
      const c = bytes[i]!;
      h1 = Math.imul(h1 ^ c, 2654435761);
      h2 = Math.imul(h2 ^ c, 1597334677);
    }
    this.end(h1, h2, end - start);
  }
  private end(h1: number, h2: number, length: number): void {
    // The length ends the record: ["ab", "c"] and ["a", "bc"] differ.
    h1 = Math.imul(h1 ^ length, 2654435761);
    h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
    h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
    this.h1 = h1;
    this.h2 = h2;
  }
  get value(): string {
    return (this.h1 >>> 0).toString(16).padStart(8, '0') + (this.h2 >>> 0).toString(16).padStart(8, '0');
  }
}

export function firstState(ids: string): DocumentState {
  return { records: 0, digest: '', ids };
}
