/**
 * What a transmit type tells the rest of the configuration code about itself (docs/decisions/0055).
 * Each type's folder (transmits/<type>/index.ts) exports one descriptor; transmits/index.ts lists them,
 * and the schema union, TRANSMIT_TYPES, the rule dispatch, the templates, the editor's snippets, the
 * secret targets and the product-family sentences derive from that list.
 */
import type { z } from 'zod';
import type { JsonPath, Violation } from '../violations.js';
import type { SecretFields, SecretTarget } from '../secret-fields.js';

/** What a transmit's rules may look at besides the transmit itself. */
export interface TransmitRuleContext {
  /** Where the transmit is written, e.g. ['data_transmit', 2]. */
  base: JsonPath;
  index: number;
  /** The whole document (e.g. its sight_machine_cloud block), as far as it parsed. */
  document: { sight_machine_cloud?: Record<string, unknown>; data_transmit: readonly unknown[] };
  /** A template prompt ("<fill in: ...>") that was never filled in. */
  isPrompt: (value: string) => boolean;
}

/** A transmit the editor and GET /v1/config/templates offer, ready to be inserted into data_transmit. */
export interface TransmitTemplate {
  transmit: Record<string, unknown>;
  /** When set, the editor offers it as a snippet "<name> transmit (template)" described as "A <snippet> transmit …". */
  snippet?: string;
}

export interface TransmitDescriptor<
  S extends z.ZodObject = z.ZodObject,
  T extends Record<string, TransmitTemplate> = Record<string, TransmitTemplate>,
> {
  /** The value of `transmit_type` in the configuration. */
  type: string;
  /** The transmit's block: a strict object whose `transmit_type` is z.literal(type). */
  schema: S;
  /** What the schema cannot say, reported at the json_path to change. */
  rules?: (transmit: z.infer<S>, context: TransmitRuleContext) => Violation[];
  /** Rules of the document as a whole that concern the type (remotedatapost: the sight_machine_cloud block). */
  documentRules?: (document: TransmitRuleContext['document'], options: { partial: boolean }) => Violation[];
  /** The transmit as the agent runs it (e.g. credentials filled in from elsewhere in the document). */
  resolve?: (transmit: z.infer<S>, index: number, document: TransmitRuleContext['document']) => Record<string, unknown>;
  /** Templates by name (a type may have several, e.g. mqtt's JSON and Sparkplug B forms). */
  templates?: T;
  /** Secrets the transmit holds and what names their target (secret-targets.ts). */
  secrets?: readonly SecretFields[];
  /** Secrets of top-level blocks the type reads (remotedatapost: sight_machine_cloud's key). */
  blockSecrets?: readonly SecretTarget[];
  /** How the product family's messages say what it does: "sends with mqtt", "writes csv files". */
  does: { verb: 'sends with' | 'writes'; what: string };
  /** The page of docs/ that explains the type, if any. */
  docs?: string;
}

/**
 * Keeps the schema's own type on `rules` and the template names (the descriptor list is checked
 * against TransmitDescriptor).
 */
export function transmitDescriptor<
  S extends z.ZodObject,
  T extends Record<string, TransmitTemplate> = Record<never, never>,
>(
  descriptor: TransmitDescriptor<S, T>,
): TransmitDescriptor<S, T> {
  return descriptor;
}
