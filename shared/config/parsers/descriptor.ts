/**
 * What a parser type tells the rest of the configuration code about itself (docs/decisions/0055).
 * Each type's folder (parsers/<type>/index.ts) exports one descriptor; parsers/index.ts lists them,
 * and the ParserSchema union, the parser types, the rule dispatch and the editor's parser snippets
 * derive from that list (derive.ts).
 */
import type { z } from 'zod';
import type { JsonPath, Violation } from '../violations.js';

/**
 * How the agent reads a file with it: `lines`, in chunks by the spreadsheet engine
 * (electron/agent/parsers/spreadsheet/, resumable at any byte); `document`, whole, by the reader the
 * agent registers for the type (electron/agent/parsers/registry.ts).
 */
export type ParserReads = 'lines' | 'document';

export interface ParserDescriptor<S extends z.ZodObject = z.ZodObject, R extends ParserReads = ParserReads> {
  /** The value of `parser_type` in the configuration. */
  type: string;
  /** The parser's block: a strict object whose `parser_type` is z.literal(type). */
  schema: S;
  reads: R;
  /** What the schema cannot say, reported at the json_path to change (`base`: the parser's path). */
  rules?: (parser: z.infer<S>, base: JsonPath) => Violation[];
  /** The parser the editor offers as a snippet in a file receiver's parsers (prompts to fill in). */
  template?: Record<string, unknown>;
  /** The page of docs/ that explains the type, if any. */
  docs?: string;
  /** The parser of the file receivers' new-item templates in the deprecated meta objects (GET /v1/meta). */
  meta?: { template: Record<string, unknown> };
}

/** Keeps the schema's own type on `rules` and `reads` as written (index.ts derives types from both). */
export function parserDescriptor<S extends z.ZodObject, R extends ParserReads>(
  descriptor: ParserDescriptor<S, R>,
): ParserDescriptor<S, R> {
  return descriptor;
}
