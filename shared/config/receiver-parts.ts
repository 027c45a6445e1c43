/**
 * The pieces every receiver protocol's schema builds on (receivers/<protocol>/schema.ts): the common
 * receiver fields, and for file receivers the parsers, streams and file order. Kept apart from
 * schema.ts so a protocol folder can import them without an import circle through the registry.
 */
import { z } from 'zod';
import { SpreadsheetParseOptionsSchema } from './csv-options.js';
import { timeZoneName } from './schema-parts.js';
import { FilterStreamSchema } from './schema-parts.js';
import { DOCUMENT_PARSER_SCHEMAS } from './parsers/index.js';
import { streamIdentity } from './schema-parts.js';

export const name = (what: string) => z.string().min(1, `${what} must not be empty`);


export const pollInterval = z
  .number()
  .int()
  .min(1)
  .max(65535)
  .default(5)
  .describe('Seconds between two looks at the source (1..65535, default 5).');

export const deleteCompleted = z
  .boolean()
  .default(false)
  .describe('Delete each source file after it has been read and buffered. Default false.');

// ---------------------------------------------------------------- parsers

export { BadLinesActionSchema, ParseTimestampSchema, SpreadsheetParseOptionsSchema } from './csv-options.js';

const parserFields = {
  parser_name: name('parser_name').describe('Name that streams refer to.'),
  filter_stream: FilterStreamSchema.optional(),
  file_format: z.enum(['csv']).default('csv').describe('File format; csv is supported.'),
  file_encoding: z
    .string()
    .min(1)
    .default('utf-8')
    .describe('Text encoding of the files by its Python codec name (default utf-8), e.g. cp1252 (windows-1252), latin-1, iso8859-15, cp850, shift_jis, cp932, gbk, big5, euc_kr, utf-8-sig, utf-16, utf-16-le, utf-16-be. A byte order mark, when present, wins.'),
  options: z
    .strictObject({
      localtz: timeZoneName('IANA time zone of local times in the files, e.g. Europe/Berlin. Default UTC.').optional(),
      counter: z.boolean().optional().describe('Add a running counter column to each record.'),
      parse: SpreadsheetParseOptionsSchema.optional(),
    })
    .optional(),
};

export const SpreadsheetParserSchema = z
  .strictObject({ ...parserFields, parser_type: z.literal('spreadsheet') })
  .describe('Reads delimiter-separated text files (CSV) into records.');

export const CsvParserSchema = z
  .strictObject({
    ...parserFields,
    parser_type: z.literal('csv'),
    separator: z.string().min(1).optional().describe('Column separator, default ","; "\\t" for tab-separated files, "|" for pipes. Same as options.parse.separator.'),
  })
  .describe('The product family\'s csv parser: the spreadsheet parser with the separator at the top level.');

export const ParserSchema = z.discriminatedUnion('parser_type', [SpreadsheetParserSchema, CsvParserSchema, ...DOCUMENT_PARSER_SCHEMAS]);
/** The line-by-line (csv) parsers; the others read whole documents (parsers/index.ts). */
export type TextParser = z.infer<typeof SpreadsheetParserSchema> | z.infer<typeof CsvParserSchema>;

// ---------------------------------------------------------------- streams

export const FileStreamSchema = z.strictObject({
  ...streamIdentity,
  file_filter: z
    .array(z.string().min(1))
    .min(1)
    .optional()
    .describe('Patterns of file names: globs such as "*.csv" (* ? [a-z] **), or regular expressions written "regex:<expression>" (the whole name must match). A pattern with "/" is matched against the path below the folder. Exactly one of file_filter and path_filter.'),
  path_filter: z
    .array(z.string().min(1))
    .min(1)
    .optional()
    .describe('Like file_filter, but every pattern is matched against the path below the connection\'s folder ("/" separated), e.g. "line1/**/*.csv" or "regex:line[0-9]/.*\\.csv". Exactly one of file_filter and path_filter.'),
  parser: z.string().min(1).optional().describe('parser_name of the parser for this stream; default: the first parser whose filter_stream matches.'),
});
// ---------------------------------------------------------------- receivers

export const receiverCommon = {
  data_receiver_name: z.string().min(1, 'data_receiver_name must not be empty').describe('Unique name; progress is kept under it.'),
  poll_interval: pollInterval,
};

/** Order in which file receivers read the files they find (docs/data-path.md). */
export const fileOrder = {
  process_files_alphabetically: z
    .boolean()
    .optional()
    .describe('true: files are read one after the other in name order; false: oldest modification time first. Unset: name order, two files at a time.'),
  process_ordered_connections: z
    .boolean()
    .optional()
    .describe('true: all files of the first connection, then of the next (one file at a time); false: the files of all connections in one order. Unset: connection after connection, two files at a time.'),
};

