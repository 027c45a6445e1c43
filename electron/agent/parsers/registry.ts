/**
 * The agent's parser registry: for each parser type read as a whole document, the reader that opens a
 * file with it, one line per type (its folder: parsers/<type>/). The configuration side's list is
 * shared/config/parsers/index.ts; the types it says are read line by line (spreadsheet, csv) run on
 * the spreadsheet engine (parsers/spreadsheet/) and have no line here.
 */
import type { DocumentParserConfig, DocumentParserType } from '../../../shared/config/parsers/index.js';
import type { ByteSource, DocumentReader } from './document/document-reader.js';
import { openExcelReader } from './excel/index.js';
import { openJsonReader } from './json/index.js';
import { openXmlReader } from './xml/index.js';

/** Where a reader that can start mid-file (JSON Lines) goes on; the others read from the start. */
export type ReaderResume = { byte: number; line: number };
/** Opens `source` (named `name` in places and markers) with one type's configuration. */
export type DocumentReaderOpener<T extends DocumentParserType = DocumentParserType> = (
  config: Extract<DocumentParserConfig, { parser_type: T }>,
  source: ByteSource,
  name: string,
  resume?: ReaderResume,
) => DocumentReader;

export const DOCUMENT_READERS: { readonly [T in DocumentParserType]: DocumentReaderOpener<T> } = {
  excel: openExcelReader,
  json: openJsonReader,
  xml: openXmlReader,
};
