/** `parser_type: "csv"`: the product family's csv parser, the spreadsheet parser with `separator` on top. */
import { z } from 'zod';
import { SpreadsheetParserSchema, textParserFields } from '../spreadsheet/schema.js';

export const CsvParserSchema = z
  .strictObject({
    ...textParserFields,
    parser_type: z.literal('csv'),
    separator: z.string().min(1).optional().describe('Column separator, default ","; "\\t" for tab-separated files, "|" for pipes. Same as options.parse.separator.'),
  })
  .describe('The product family\'s csv parser: the spreadsheet parser with the separator at the top level.');

/** The line-by-line parsers (the agent's spreadsheet engine reads both); the others read whole documents. */
export type TextParser = z.infer<typeof SpreadsheetParserSchema> | z.infer<typeof CsvParserSchema>;
