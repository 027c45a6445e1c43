import { z } from 'zod';
import { documentParserFields, documentTimeOptions } from '../document-fields.js';

const column = z.union([z.string().min(1), z.number().int().min(0)]);

/** `parser_type: "excel"`: one sheet of an .xlsx / .xlsm workbook, options named as pandas read_excel's. */
export const ExcelParserSchema = z
  .strictObject({
    ...documentParserFields,
    parser_type: z.literal('excel'),
    options: z
      .strictObject({
        sheet_name: z
          .union([z.string().min(1), z.number().int().min(0)])
          .optional()
          .describe('Sheet to read: its name, or its zero-based position (default 0, the first sheet).'),
        header: z
          .union([z.number().int().min(0), z.null()])
          .optional()
          .describe('Zero-based row (after skiprows) holding the column names (default 0); null: no header, columns are named 0, 1, 2 …'),
        skiprows: z
          .union([z.number().int().min(0), z.array(z.number().int().min(0))])
          .optional()
          .describe('Rows to skip at the top of the sheet (a count), or the zero-based numbers of the rows to skip.'),
        nrows: z.number().int().min(0).optional().describe('Data rows to read after the header (default all).'),
        usecols: z
          .union([z.string().min(1), z.array(column).min(1)])
          .optional()
          .describe('Columns to keep: Excel letters and ranges ("A:C,E"), or a list of names or zero-based positions.'),
        ...documentTimeOptions,
      })
      .optional(),
  })
  .describe('Reads one sheet of Excel workbooks (.xlsx, .xlsm) into records: a row a record, cached formula results as values. A file is read whole once it has not changed for 10 s (3 poll intervals when longer).');
