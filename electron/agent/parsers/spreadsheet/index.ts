/** The spreadsheet (CSV) parser: resumable, byte-exact parsing of file chunks into rows. */
export { checkSpreadsheetState, createSpreadsheetParser, readSpreadsheetState } from './spreadsheet-parser.js';
export type { ChunkResult, ParsedRow, SpreadsheetParser, SpreadsheetParserConfig, SpreadsheetState } from './spreadsheet-parser.js';
export { readOptionsOf } from './read-options.js';
export { resolveEncoding } from './text-encoding.js';
export type { FileEncoding } from './text-encoding.js';
