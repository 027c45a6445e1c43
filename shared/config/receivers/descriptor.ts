/**
 * What a receiver protocol tells the rest of the configuration code about itself (docs/decisions/0055).
 * Each protocol folder (receivers/<protocol>/index.ts) exports one descriptor; receivers/index.ts lists
 * them, and the schema union, RECEIVER_PROTOCOLS, the rule dispatch and the product-family sentences
 * are derived from that list, so adding a protocol does not mean editing them.
 */
import type { z } from 'zod';
import type { JsonPath, Violation } from '../violations.js';
import type { TransformSchema } from '../transform-schema.js';
import type { SecretFields } from '../secret-fields.js';
import type { ReceiverMetaEntry } from '../meta-parts.js';

// Types come from the protocol's own schema, not from schema.ts: schema.ts imports the registry, and a
// type import back would be an import circle a reader has to follow.
type TransformInput = z.input<typeof TransformSchema>;

/** What the templates (templates.ts) and the editor's snippets take from a protocol. */
export interface ReceiverTemplate {
  /** Name and sentence of the complete configuration in GET /v1/config/templates. */
  title: string;
  description: string;
  /** The receiver the editor inserts into data_receiver (prompts where the engineer fills in). */
  receiver: Record<string, unknown>;
  /** Transforms the complete configuration adds (e.g. local time to UTC for files). */
  transforms?: readonly TransformInput[];
  /** The transmit template (by name) the complete configuration sends with; default the registry's first. */
  transmit?: string;
  /** Streams the editor offers as snippets inside this receiver's streams, by name. */
  streams?: Record<string, object>;
}

/** Checks the protocol rules share with the generic rules (semantic-rules.ts), handed in to avoid a circle. */
export interface ReceiverRuleChecks {
  /** A template prompt ("<fill in: ...>") that was never filled in. */
  isPrompt: (value: string) => boolean;
  isValidTimeZone: (zone: string) => boolean;
  unknownStrptimeDirective: (format: string) => string | undefined;
}

/** Where a file receiver's connections keep their files. */
export interface ReceiverFiles {
  /** A Windows share (names compare without case, paths join with "\\"), else a local folder. */
  share: boolean;
  /** The connection field that names its folder. */
  folderField: (connection: Record<string, unknown>) => string;
}

export interface ReceiverDescriptor<S extends z.ZodObject = z.ZodObject> {
  /** The value of `protocol` in the configuration. */
  protocol: string;
  /** The receiver's block: a strict object whose `protocol` is z.literal(protocol). */
  schema: S;
  /** What the schema cannot say, reported at the json_path to change (after the generic rules). */
  rules?: (receiver: z.infer<S>, base: JsonPath, checks: ReceiverRuleChecks) => Violation[];
  template?: ReceiverTemplate;
  /** A file receiver's folders (the generic file rules, previews and checks read them through this). */
  files?: ReceiverFiles;
  /** Secrets each of its connections holds and what names their target (secret-targets.ts). */
  secrets?: readonly SecretFields[];
  /** The page of docs/ that explains the protocol, if any. */
  docs?: string;
  /** Its subtypes in the deprecated meta objects (GET /v1/meta), if it has them. */
  meta?: ReceiverMetaEntry;
}

/** Keeps the schema's own type on `rules` (the descriptor list is checked against ReceiverDescriptor). */
export function receiverDescriptor<S extends z.ZodObject>(descriptor: ReceiverDescriptor<S>): ReceiverDescriptor<S> {
  return descriptor;
}
