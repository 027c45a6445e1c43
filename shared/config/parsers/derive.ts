/**
 * What derives from the parser registry (index.ts). Kept apart from the list so that the list is the
 * only thing a new parser type edits (and the only thing a test swaps to add a fixture type).
 */
import type { z } from 'zod';
import type { JsonPath, Violation } from '../violations.js';
import type { ParserDescriptor } from './descriptor.js';
import { PARSER_DESCRIPTORS } from './index.js';

type Descriptors = typeof PARSER_DESCRIPTORS;
// A generic mapped type keeps the tuple (a mapped type over a concrete tuple would not).
type SchemasOf<T> = { -readonly [K in keyof T]: T[K] extends { schema: infer S } ? S : never };
type Schemas = SchemasOf<Descriptors>;
const descriptors = PARSER_DESCRIPTORS as readonly ParserDescriptor<z.ZodObject>[];

/** The parsers' schemas in registry order, typed as the tuple z.discriminatedUnion needs. */
export const PARSER_SCHEMAS = PARSER_DESCRIPTORS.map((d) => d.schema) as unknown as Schemas;

/** Every parser_type value, in registry order. */
export const PARSER_TYPES: readonly string[] = descriptors.map((d) => d.type);

/** The descriptor of a parser_type value, or undefined for a type no parser has. */
export function parserDescriptorOf(type: string): ParserDescriptor<z.ZodObject> | undefined {
  return descriptors.find((d) => d.type === type);
}

/** The rules of a parser's own type, from its folder (none for a type no parser has). */
export function parserTypeViolations(parser: { parser_type: string }, base: JsonPath): Violation[] {
  return parserDescriptorOf(parser.parser_type)?.rules?.(parser, base) ?? [];
}

/** The parsers the editor offers as snippets in a file receiver's parsers, by type (registry order). */
export const PARSER_TEMPLATES: Readonly<Record<string, Record<string, unknown>>> = Object.fromEntries(
  descriptors.flatMap((d) => (d.template ? [[d.type, d.template]] : [])),
);
