/** The spreadsheet parser, as the configuration code sees it (registered in parsers/index.ts). */
import { parserDescriptor } from '../descriptor.js';
import { META_INDEX } from '../../meta-parts.js';
import { textParserViolations } from './rules.js';
import { SpreadsheetParserSchema } from './schema.js';

export const spreadsheetParser = parserDescriptor({
  type: 'spreadsheet',
  schema: SpreadsheetParserSchema,
  reads: 'lines',
  rules: textParserViolations,
  // Its template (template.ts) comes with the localfile and smb receivers' templates, not as a snippet.
  docs: 'docs/compatibility.md',
  meta: {
    template: {
      parser_name: `csv_parser_${META_INDEX}`,
      parser_type: 'spreadsheet',
      filter_stream: ['*'],
      file_format: 'csv',
      options: { localtz: 'UTC', parse: { separator: ',', header: 0 } },
    },
  },
});
