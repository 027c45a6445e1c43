/** The csv parser, as the configuration code sees it (registered in parsers/index.ts). */
import { parserDescriptor } from '../descriptor.js';
import { textParserViolations } from '../spreadsheet/rules.js';
import { CsvParserSchema } from './schema.js';

export const csvParser = parserDescriptor({
  type: 'csv',
  schema: CsvParserSchema,
  // The spreadsheet parser with its separator on top: the same engine and the same rules.
  reads: 'lines',
  rules: textParserViolations,
  docs: 'docs/compatibility.md',
});
