import { z } from 'zod';
import { documentParserFields, documentTimeOptions } from '../document-fields.js';

/** `parser_type: "json"`: JSON documents or JSON Lines, records flattened as pandas json_normalize does. */
export const JsonParserSchema = z
  .strictObject({
    ...documentParserFields,
    parser_type: z.literal('json'),
    options: z
      .strictObject({
        lines: z.boolean().optional().describe('true: one JSON value a line (JSON Lines / NDJSON); false (default): one JSON document a file.'),
        record_path: z
          .union([z.string().min(1), z.array(z.string().min(1)).min(1)])
          .optional()
          .describe('Keys from the document to the array of records, as pandas json_normalize\'s record_path (e.g. ["data", "rows"]). Default: the document is the array of records, or one record.'),
        ...documentTimeOptions,
      })
      .optional(),
  })
  .describe('Reads JSON files into records: nested objects flattened with "." (machine.id), arrays kept as JSON text. A file is read whole once it has not changed for 10 s (3 poll intervals when longer).');
