/**
 * A parser configuration's options in one normalized form: the aliases the product family allows
 * (csv `separator`, pandas `sep`, `delimiter`, `encoding`, `on_bad_lines`) resolved, pandas' header
 * rules applied, and whether the file needs the general path (options-parser.ts) or can be read by
 * the tuned one (spreadsheet-parser.ts).
 */
import type { SpreadsheetParseOptions } from '../../../../shared/config/csv-options.js';
import { lookupEncoding } from '../../../../shared/config/encodings.js';
import type { Parser as AnyParser, TextParser as Parser } from '../../../../shared/config/schema.js';
import { isDocumentParser } from '../../../../shared/config/parsers/kinds.js';

export interface ReadOptions {
  separator: string;
  /**
   * Python codec name (file_encoding, or pandas' `encoding` when file_encoding is left at utf-8).
   */
  encoding: string;
  /**
   * Zero-based header row among the rows read (blank and skipped lines not counted); null: no
   * header row.
   */
  header: number | null;
  badLinesAction: 'error' | 'warn' | 'skip';
  quote: string;
  comment: string | null;
  /** True when any option only the general path honours is used. */
  general: boolean;
  parse: SpreadsheetParseOptions;
}

/** A separator typed as the two characters `\t` means a tab too. */
const unescape = (separator: string) => (separator === '\\t' ? '\t' : separator);

/**
 * The configuration as a csv parser's: a document parser (excel, json, xml) never reaches this one.
 */
export function textParserOf(config: AnyParser): Parser {
  if (isDocumentParser(config)) throw new Error(`parser_type ${config.parser_type} is read as a whole document, not line by line`);
  return config;
}

export function readOptionsOf(any: AnyParser): ReadOptions {
  const config = textParserOf(any);
  const parse: SpreadsheetParseOptions = config.options?.parse ?? {};
  const separator = unescape((config.parser_type === 'csv' ? config.separator : undefined) ?? parse.separator ?? parse.sep ?? parse.delimiter ?? ',');
  const configured = lookupEncoding(config.file_encoding)?.codec;
  const encoding = parse.encoding !== undefined && (configured === 'utf_8' || configured === undefined) ? parse.encoding : config.file_encoding;
  // pandas' header='infer' (its default): no header row when names are given, else row 0.
  const header = parse.header === undefined || parse.header === 'infer' ? (parse.names ? null : 0) : Array.isArray(parse.header) ? (parse.header[0] ?? 0) : parse.header;
  const quote = parse.quotechar ?? '"';
  const comment = parse.comment ?? null;
  const general =
    header === null ||
    quote !== '"' ||
    comment !== null ||
    (parse.decimal !== undefined && parse.decimal !== '.') ||
    (parse.thousands !== undefined && parse.thousands !== null) ||
    parse.skiprows !== undefined ||
    (parse.skipfooter ?? 0) > 0 ||
    parse.names !== undefined ||
    parse.usecols !== undefined ||
    parse.na_values !== undefined ||
    parse.keep_default_na !== undefined ||
    parse.true_values !== undefined ||
    parse.false_values !== undefined ||
    parse.skip_blank_lines === false ||
    parse.dtype !== undefined;
  return { separator, encoding, header, badLinesAction: parse.bad_lines_action ?? parse.on_bad_lines ?? 'warn', quote, comment, general, parse };
}
