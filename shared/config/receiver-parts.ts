/**
 * The pieces every receiver protocol's schema builds on (receivers/<protocol>/schema.ts): the common
 * receiver fields, and for file receivers the parsers, streams and file order. Kept apart from
 * schema.ts so a protocol folder can import them without an import circle through the registry.
 */
import { z } from 'zod';
import { PARSER_SCHEMAS } from './parsers/derive.js';
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

export { SpreadsheetParserSchema, CsvParserSchema, type TextParser } from './parsers/index.js';

/** One block per parser type, from the registry (parsers/index.ts). */
export const ParserSchema = z.discriminatedUnion('parser_type', PARSER_SCHEMAS);

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

