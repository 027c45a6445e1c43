/**
 * The whole-document parsers: the parse threads open a reader by the parser's type, from the
 * registry (parsers/registry.ts, one line per type).
 */
import type { DocumentParserConfig } from '../../../../shared/config/parsers/index.js';
import { DOCUMENT_READERS, type DocumentReaderOpener, type ReaderResume } from '../registry.js';
import { type ByteSource, DocumentError, type DocumentReader } from './document-reader.js';

/** A reader of `source` (named `name` in places and markers) for a document parser configuration. */
export function openDocumentReader(config: DocumentParserConfig, source: ByteSource, name: string, resume?: ReaderResume): DocumentReader {
  const open = (DOCUMENT_READERS as Readonly<Record<string, DocumentReaderOpener | undefined>>)[config.parser_type];
  // A type the configuration side lists but this build has no reader for: the file stops with a reason.
  if (!open) throw new DocumentError(name, `this build has no reader for parser_type ${config.parser_type}.`);
  // Only readers that can start mid-file (JSON Lines) take `resume`; the others read from the start.
  return open(config as never, source, name, resume);
}

export { DocumentError, DOCUMENT_LIMITS, bufferSource, openFileSource } from './document-reader.js';
export type { ByteSource, DocumentReader, DocumentRecord } from './document-reader.js';
