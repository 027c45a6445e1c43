/** Parsers: bytes of a source file → rows. One folder per parser_type. */
export * from './spreadsheet/index.js';
export * from './document/index.js';
