/**
 * The parser registry of the configuration side: one line per parser_type. The ParserSchema union,
 * the parser types, the rule dispatch and the editor's parser snippets derive from this list
 * (derive.ts; docs/architecture.md, "How to add a parser"). The agent's twin, for the types read as
 * whole documents, is electron/agent/parsers/registry.ts.
 */
import type { z } from 'zod';
import { spreadsheetParser } from './spreadsheet/index.js';
import { csvParser } from './csv/index.js';
import { excelParser } from './excel/index.js';
import { jsonParser } from './json/index.js';
import { xmlParser } from './xml/index.js';

export { SpreadsheetParserSchema } from './spreadsheet/schema.js';
export { CsvParserSchema, type TextParser } from './csv/schema.js';
export { ExcelParserSchema } from './excel/schema.js';
export { JsonParserSchema } from './json/schema.js';
export { XmlParserSchema } from './xml/schema.js';
export { DocumentTimestampSchema, type DocumentTimeOptions } from './document-fields.js';
export type { ParserDescriptor, ParserReads } from './descriptor.js';

/** In the order the JSON Schema lists them (the OpenAPI document and the editor keep this order). */
export const PARSER_DESCRIPTORS = [spreadsheetParser, csvParser, excelParser, jsonParser, xmlParser] as const;

type Descriptor = (typeof PARSER_DESCRIPTORS)[number];
type ConfigOf<D> = D extends { schema: infer S extends z.ZodType } ? z.infer<S> : never;
/** A parser read as a whole document (excel, json, xml): its configuration. */
export type DocumentParserConfig = ConfigOf<Extract<Descriptor, { reads: 'document' }>>;
export type DocumentParserType = DocumentParserConfig['parser_type'];

// Line by line is the spreadsheet engine's way, for the types that say so; every other type is read
// whole by the reader the agent registers for it, so a type added by a line above is one too. The
// set is taken here, not in derive.ts, because the parse threads import isDocumentParser from here.
const LINE_TYPES: ReadonlySet<string> = new Set(PARSER_DESCRIPTORS.flatMap((d) => (d.reads === 'lines' ? [d.type] : [])));

/** Whether a parser is read as a whole document (excel, json, xml) rather than line by line (csv). */
export function isDocumentParser<T extends { parser_type: string }>(parser: T): parser is T & DocumentParserConfig {
  return !LINE_TYPES.has(parser.parser_type);
}
