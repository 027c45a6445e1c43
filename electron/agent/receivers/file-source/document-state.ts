/**
 * Progress of a file read as a whole document (excel, json, xml), kept as its parser state: how
 * many records are committed, a digest of their content, and the key their record ids derive from.
 * A rewritten file whose first records are the same as before (an export saved again with more
 * rows) keeps that key, so that only the new records are sent; one whose content changed is read
 * again under a new key (docs/decisions/0038-document-parsers.md).
 */
import crypto from 'node:crypto';
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

/** The digest after one more record: chained, so that equal digests mean equal records in order. */
export function chainDigest(digest: string, fieldvalues: unknown): string {
  return crypto.createHash('sha1').update(digest).update(JSON.stringify(fieldvalues)).digest('base64');
}

export function firstState(ids: string): DocumentState {
  return { records: 0, digest: '', ids };
}
