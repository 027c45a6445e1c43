/**
 * The parser registry of the configuration side: one line per parser_type. The ParserSchema union,
 * the parser types, the rule dispatch and the editor's parser snippets derive from this list
 * (derive.ts; docs/architecture.md, "How to add a parser"). The agent's twin, for the types read as
 * whole documents, is electron/agent/parsers/registry.ts.
 */
import type { ParserDescriptorType } from './kinds.js';
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

// kinds.ts names the same descriptors as types (it may not import this module): a descriptor
// listed here and not there does not compile.
PARSER_DESCRIPTORS satisfies readonly ParserDescriptorType[];
export type { DocumentParserConfig, DocumentParserType } from './kinds.js';
export { LINE_PARSER_TYPES, isDocumentParser } from './kinds.js';
