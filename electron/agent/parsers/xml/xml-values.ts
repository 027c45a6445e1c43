/**
 * Values of XML texts as pandas read_xml gives them (its parser infers types as read_csv does):
 * integers and decimals as numbers, True/False as booleans, pandas' missing-value texts and empty
 * elements as null, everything else as text. Decided per value: a stream is never seen whole.
 */
import type { FieldValue } from '../../../../shared/records/record.js';

const INTEGER = /^[+-]?\d+$/;
const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
/** pandas' default na_values (read_csv). */
const MISSING = new Set(['', '#N/A', '#N/A N/A', '#NA', '-1.#IND', '-1.#QNAN', '-NaN', '-nan', '1.#IND', '1.#QNAN', '<NA>', 'N/A', 'NA', 'NULL', 'NaN', 'None', 'n/a', 'nan', 'null']);
const TRUE = new Set(['True', 'TRUE', 'true']);
const FALSE = new Set(['False', 'FALSE', 'false']);

export function xmlValue(text: string | null): FieldValue {
  if (text === null) return null;
  const trimmed = text.trim();
  if (MISSING.has(trimmed)) return null;
  if (INTEGER.test(trimmed)) {
    const value = Number(trimmed);
    // Beyond 2^53 a number would change the digits: keep the text.
    return Number.isSafeInteger(value) ? value : trimmed;
  }
  if (DECIMAL.test(trimmed)) return Number(trimmed);
  if (TRUE.has(trimmed)) return true;
  if (FALSE.has(trimmed)) return false;
  return trimmed;
}
