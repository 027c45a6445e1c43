/**
 * Parser types read as whole documents (excel, json, xml): one folder each, registered here by one
 * line. schema.ts' ParserSchema union takes them from DOCUMENT_PARSER_SCHEMAS.
 */
import { ExcelParserSchema } from './excel/schema.js';
import { JsonParserSchema } from './json/schema.js';
import { XmlParserSchema } from './xml/schema.js';
import { EXCEL_PARSER_TEMPLATE } from './excel/template.js';
import { JSON_PARSER_TEMPLATE } from './json/template.js';
import { XML_PARSER_TEMPLATE } from './xml/template.js';

export { ExcelParserSchema, JsonParserSchema, XmlParserSchema };
export { DocumentTimestampSchema, type DocumentTimeOptions } from './document-fields.js';

export const DOCUMENT_PARSER_SCHEMAS = [ExcelParserSchema, JsonParserSchema, XmlParserSchema] as const;

export type DocumentParserConfig = import('zod').infer<(typeof DOCUMENT_PARSER_SCHEMAS)[number]>;
export type DocumentParserType = DocumentParserConfig['parser_type'];

/** A parser of each document type, as a template (values to fill in start with "<fill in: "). */
export const DOCUMENT_PARSER_TEMPLATES: Record<DocumentParserType, Record<string, unknown>> = {
  excel: EXCEL_PARSER_TEMPLATE,
  json: JSON_PARSER_TEMPLATE,
  xml: XML_PARSER_TEMPLATE,
};

export const DOCUMENT_PARSER_TYPES = Object.keys(DOCUMENT_PARSER_TEMPLATES) as DocumentParserType[];

/** Whether a parser is read as a whole document (excel, json, xml) rather than line by line (csv). */
export function isDocumentParser<T extends { parser_type: string }>(parser: T): parser is T & DocumentParserConfig {
  return (DOCUMENT_PARSER_TYPES as readonly string[]).includes(parser.parser_type);
}
