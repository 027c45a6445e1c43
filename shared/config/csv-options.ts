/**
 * `options.parse` of spreadsheet / csv parsers: Tributary's own options plus the pandas `read_csv`
 * keywords plant exports need, with pandas' meaning (the product family passed `options.parse`
 * straight to read_csv). The other read_csv keywords are accepted with a warning naming them
 * ("not supported; ignored"); any other unknown field is an error, with "did you mean".
 */
import { z } from 'zod';

export const ParseTimestampSchema = z.strictObject({
  field_name: z.string().min(1, 'field_name must not be empty').describe('Column holding the time stamp.'),
  format: z.string().min(1, 'format must not be empty').describe("Python strptime format, e.g. '%Y-%m-%d %H:%M:%S' or '%b %d %Y'."),
});

export const BadLinesActionSchema = z
  .enum(['error', 'warn', 'skip'])
  .describe('What to do with a line that does not fit the header: error (stop the file and mark the stream), warn (skip it with a marker), skip (skip it silently).');

const oneCharacter = (what: string) => z.string().length(1, `${what} must be exactly one character`);
const scalar = z.union([z.string(), z.number()]);

export { DTYPE_NAMES, type DtypeKind, dtypeKind } from './dtypes.js';

/** read_csv keywords with pandas' meaning (docs/compatibility.md). */
const readCsvKeywords = {
  sep: z.string().min(1).optional().describe('pandas name of separator.'),
  delimiter: z.string().min(1).optional().describe('pandas name of separator.'),
  decimal: oneCharacter('decimal').optional().describe('Decimal mark of numbers, e.g. "," for 1,5 (default ".").'),
  thousands: oneCharacter('thousands').nullable().optional().describe('Thousands separator inside numbers, e.g. "." for 1.234,5 (default none).'),
  skiprows: z
    .union([z.number().int().min(0), z.array(z.number().int().min(0))])
    .optional()
    .describe('Lines to skip at the start of the file (a count), or the zero-based numbers of the lines to skip.'),
  skipfooter: z.number().int().min(0).optional().describe('Lines to skip at the end of the file (read once the file is complete).'),
  names: z.array(scalar).min(1).optional().describe('Column names to use; with header null the file has no header row, otherwise they replace the header row\'s names.'),
  usecols: z.array(scalar).min(1).optional().describe('Columns to keep, by name or zero-based position (not both).'),
  na_values: z
    .union([scalar, z.array(scalar), z.record(z.string(), z.union([scalar, z.array(scalar)]))])
    .optional()
    .describe('Texts that mean "no value" (null), for all columns or per column; added to pandas\' defaults unless keep_default_na is false.'),
  keep_default_na: z.boolean().optional().describe("Also treat pandas' default missing-value texts (NA, N/A, NaN, null, #N/A, …) as null. Default: true when na_values is given; without either option only empty cells are null."),
  quotechar: oneCharacter('quotechar').optional().describe('Character that quotes cells (default ").'),
  comment: oneCharacter('comment').nullable().optional().describe('The rest of a line after this character is ignored; a line that starts with it is skipped.'),
  encoding: z.string().min(1).optional().describe('pandas name of file_encoding (a Python codec name).'),
  true_values: z.array(scalar).optional().describe('Texts read as true (besides True, true, TRUE).'),
  false_values: z.array(scalar).optional().describe('Texts read as false (besides False, false, FALSE).'),
  skip_blank_lines: z.boolean().optional().describe('Skip blank lines (default true); false makes them rows of nulls.'),
  dtype: z
    .union([z.string().min(1), z.record(z.string(), z.string().min(1))])
    .optional()
    .describe('Type of every column, or per column: str (text as written), int, float or bool; a cell that does not convert is a bad line.'),
  on_bad_lines: BadLinesActionSchema.optional().describe('pandas name of bad_lines_action.'),
};

/** read_csv keywords Tributary does not honour: accepted, with a warning that names each one. */
export const UNSUPPORTED_READ_CSV_KEYWORDS = [
  'filepath_or_buffer', 'index_col', 'engine', 'converters', 'skipinitialspace', 'nrows', 'na_filter', 'verbose',
  'infer_datetime_format', 'keep_date_col', 'date_parser', 'date_format', 'cache_dates', 'iterator', 'chunksize',
  'compression', 'lineterminator', 'quoting', 'doublequote', 'escapechar', 'dialect', 'encoding_errors',
  'error_bad_lines', 'warn_bad_lines', 'delim_whitespace', 'low_memory', 'memory_map', 'float_precision',
  'storage_options', 'dtype_backend', 'squeeze', 'prefix', 'mangle_dupe_cols',
] as const;

const unsupported = Object.fromEntries(
  UNSUPPORTED_READ_CSV_KEYWORDS.map((keyword) => [keyword, z.unknown().optional().describe(`pandas read_csv keyword "${keyword}": not supported by Tributary; ignored (validation warns).`)]),
) as Record<(typeof UNSUPPORTED_READ_CSV_KEYWORDS)[number], z.ZodOptional<z.ZodUnknown>>;

export const SpreadsheetParseOptionsSchema = z.strictObject({
  separator: z.string().min(1).optional().describe('Column separator, default ",". Use "\\t" for tab-separated files.'),
  header: z
    .union([z.number().int().min(0), z.null(), z.literal('infer'), z.array(z.number().int().min(0))])
    .optional()
    .describe('Zero-based row number of the header row (default 0; blank and skipped lines not counted); null: the file has no header (columns are named by names, else 0, 1, 2 …); "infer": 0, or null when names is given.'),
  parse_timestamps: z.array(ParseTimestampSchema).optional().describe('Columns to read as time stamps with an explicit format.'),
  parse_dates: z.array(z.string().min(1)).optional().describe('Columns to read as dates, format guessed.'),
  dayfirst: z.boolean().optional().describe('For guessed dates: read 01/02/2024 as 1 February.'),
  bad_lines_action: BadLinesActionSchema.optional(),
  ...readCsvKeywords,
  ...unsupported,
});
export type SpreadsheetParseOptions = z.infer<typeof SpreadsheetParseOptionsSchema>;

/** Option names beyond Tributary's first six: a parser using any of them takes the general path. */
export const READ_CSV_KEYWORDS = Object.keys(readCsvKeywords) as (keyof typeof readCsvKeywords)[];
