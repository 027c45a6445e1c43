/** The excel parser, as the configuration code sees it (registered in parsers/index.ts). */
import { parserDescriptor } from '../descriptor.js';
import { excelParserViolations } from './rules.js';
import { ExcelParserSchema } from './schema.js';
import { EXCEL_PARSER_TEMPLATE } from './template.js';

export const excelParser = parserDescriptor({
  type: 'excel',
  schema: ExcelParserSchema,
  reads: 'document',
  rules: excelParserViolations,
  template: EXCEL_PARSER_TEMPLATE,
  docs: 'docs/compatibility.md',
});
