/**
 * Which parser types are read line by line (the spreadsheet engine's way) and which as whole
 * documents: every type but these is read whole by the reader the agent registers for it. A module
 * without the parsers' schemas, because the parse threads ask it of every chunk and start without
 * zod; document-parsers.test.ts keeps the list equal to the descriptors' `reads` (index.ts).
 */
import type { z } from 'zod';
import type { csvParser } from './csv/index.js';
import type { excelParser } from './excel/index.js';
import type { jsonParser } from './json/index.js';
import type { spreadsheetParser } from './spreadsheet/index.js';
import type { xmlParser } from './xml/index.js';

/** The parser descriptors, as types only (index.ts lists them; it checks that they are these). */
export type ParserDescriptorType =
  | typeof spreadsheetParser
  | typeof csvParser
  | typeof excelParser
  | typeof jsonParser
  | typeof xmlParser;
type ConfigOf<D> = D extends { schema: infer S extends z.ZodType } ? z.infer<S> : never;
/** A parser read as a whole document (excel, json, xml): its configuration. */
export type DocumentParserConfig = ConfigOf<Extract<ParserDescriptorType, { reads: 'document' }>>;
export type DocumentParserType = DocumentParserConfig['parser_type'];

export const LINE_PARSER_TYPES: ReadonlySet<string> = new Set(['spreadsheet', 'csv']);

/** Whether a parser is read as a whole document (excel, json, xml) rather than line by line (csv). */
export function isDocumentParser<T extends { parser_type: string }>(
  parser: T,
): parser is T & DocumentParserConfig {
  return !LINE_PARSER_TYPES.has(parser.parser_type);
}
