/** The spreadsheet parser, as the configuration code sees it (registered in parsers/index.ts). */
import { parserDescriptor } from '../descriptor.js';
import { textParserViolations } from './rules.js';
import { SpreadsheetParserSchema } from './schema.js';

export const spreadsheetParser = parserDescriptor({
  type: 'spreadsheet',
  schema: SpreadsheetParserSchema,
  reads: 'lines',
  rules: textParserViolations,
  // Its template (template.ts) comes with the localfile and smb receivers' templates, not as a snippet.
  docs: 'docs/compatibility.md',
});
