/** Rules of the excel parser that its schema cannot express. */
import type { z } from 'zod';
import { type JsonPath, type Violation, error, say } from '../../violations.js';
import type { ExcelParserSchema } from './schema.js';
import { columnsOfLetters } from './usecols.js';

export function excelParserViolations(parser: z.infer<typeof ExcelParserSchema>, base: JsonPath): Violation[] {
  const usecols = parser.options?.usecols;
  const at: JsonPath = [...base, 'options', 'usecols'];
  if (typeof usecols === 'string') {
    const columns = columnsOfLetters(usecols);
    return typeof columns === 'string' ? [error(at, say('excel.usecols_invalid', '{text}', { text: columns, usecols }))] : [];
  }
  if (usecols && usecols.some((c) => typeof c === 'number') && usecols.some((c) => typeof c === 'string'))
    return [error(at, say('excel.usecols_lists_column_names', 'usecols lists column names or zero-based positions, not both (as in pandas).'))];
  return [];
}
