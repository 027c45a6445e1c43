/**
 * Parser types read as whole documents (excel, json, xml): one folder each, registered here by one
 * line. schema.ts' ParserSchema union takes them from DOCUMENT_PARSER_SCHEMAS.
 */
import { ExcelParserSchema } from './excel/schema.js';
import { JsonParserSchema } from './json/schema.js';
import { XmlParserSchema } from './xml/schema.js';

export { ExcelParserSchema, JsonParserSchema, XmlParserSchema };
export { DocumentTimestampSchema, type DocumentTimeOptions } from './document-fields.js';

export const DOCUMENT_PARSER_SCHEMAS = [ExcelParserSchema, JsonParserSchema, XmlParserSchema] as const;

export type DocumentParserConfig = import('zod').infer<(typeof DOCUMENT_PARSER_SCHEMAS)[number]>;
export type DocumentParserType = DocumentParserConfig['parser_type'];

export const DOCUMENT_PARSER_TYPES: readonly DocumentParserType[] = ['excel', 'json', 'xml'];

/** Whether a parser is read as a whole document (excel, json, xml) rather than line by line (csv). */
export function isDocumentParser<T extends { parser_type: string }>(parser: T): parser is T & DocumentParserConfig {
  return (DOCUMENT_PARSER_TYPES as readonly string[]).includes(parser.parser_type);
}
