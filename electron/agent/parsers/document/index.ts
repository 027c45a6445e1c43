/**
 * The whole-document parsers, one folder each (excel/, json/, xml/), registered here by one line:
 * the parse threads open a reader by the parser's type.
 */
import type { DocumentParserConfig, DocumentParserType } from '../../../../shared/config/parsers/index.js';
import { openExcelReader } from '../excel/index.js';
import { openJsonReader } from '../json/index.js';
import { openXmlReader } from '../xml/index.js';
import type { ByteSource, DocumentReader } from './document-reader.js';

type Resume = { byte: number; line: number };
type Opener<T extends DocumentParserType> = (config: Extract<DocumentParserConfig, { parser_type: T }>, source: ByteSource, name: string, resume?: Resume) => DocumentReader;

const READERS: { [T in DocumentParserType]: Opener<T> } = {
  excel: openExcelReader,
  json: openJsonReader,
  xml: openXmlReader,
};

/** A reader of `source` (named `name` in places and markers) for a document parser configuration. */
export function openDocumentReader(config: DocumentParserConfig, source: ByteSource, name: string, resume?: Resume): DocumentReader {
  // Only readers that can start mid-file (JSON Lines) take `resume`; the others read from the start.
  return (READERS[config.parser_type] as Opener<DocumentParserType>)(config as never, source, name, resume);
}

export { DocumentError, DOCUMENT_LIMITS, bufferSource, openFileSource } from './document-reader.js';
export type { ByteSource, DocumentReader, DocumentRecord } from './document-reader.js';
