/** `parser_type: "spreadsheet"`: delimiter-separated text (CSV) read line by line, pandas read_csv's options. */
import { z } from 'zod';
import { SpreadsheetParseOptionsSchema } from '../../csv-options.js';
import { FilterStreamSchema, timeZoneName } from '../../schema-parts.js';

/** The fields of the line-by-line parsers (spreadsheet, and csv: ../csv/schema.ts). */
export const textParserFields = {
  parser_name: z.string().min(1, 'parser_name must not be empty').describe('Name that streams refer to.'),
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
  .strictObject({ ...textParserFields, parser_type: z.literal('spreadsheet') })
  .describe('Reads delimiter-separated text files (CSV) into records.');
