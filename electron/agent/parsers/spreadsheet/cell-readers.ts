/**
 * Cell text → value under pandas read_csv options (decimal, thousands, na_values, keep_default_na,
 * true_values, false_values, dtype), one reader per column, built once per header. Without dtype a
 * cell is typed as cell-values.ts types it (per cell, leading zeros stay text), with numbers in the
 * configured notation ("1.234,5" with decimal "," and thousands ".").
 */
import type { SpreadsheetParseOptions } from '../../../../shared/config/csv-options.js';
import { type DtypeKind, dtypeKind } from '../../../../shared/config/dtypes.js';
import type { FieldValue } from '../../../../shared/records/record.js';
import { cellValue, cellValueByRules } from './cell-values.js';

/** A cell that does not convert to its column's dtype: its line is a bad line. */
export class BadCell {
  constructor(readonly message: string) {}
}

export type CellReader = (text: string) => FieldValue | BadCell;

/** pandas' default missing-value texts (keep_default_na). */
export const PANDAS_NA_VALUES = ['', '#N/A', '#N/A N/A', '#NA', '-1.#IND', '-1.#QNAN', '-NaN', '-nan', '1.#IND', '1.#QNAN', '<NA>', 'N/A', 'NA', 'NULL', 'NaN', 'None', 'n/a', 'nan', 'null'];

const escape = (char: string) => char.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The text of a number in the configured notation rewritten with "." and without thousands
 * separators ("1.234,5" → "1234.5"), trimmed; undefined when the text is not such a number.
 */
function numberNormalizer(
  decimal: string,
  thousands: string | null,
): (text: string) => string | undefined {
  const digits = thousands === null ? '\\d+' : `\\d+(?:${escape(thousands)}\\d+)*`;
  const pattern = new RegExp(
    `^[+-]?(?:${digits}(?:${escape(decimal)}\\d*)?|${escape(decimal)}\\d+)(?:[eE][+-]?\\d+)?$`,
  );
  return (text) => {
    const trimmed = text.trim();
    if (!pattern.test(trimmed)) return undefined;
    return (thousands === null ? trimmed : trimmed.split(thousands).join('')).replace(decimal, '.');
  };
}

/** Readers for the given (output) columns. */
export function cellReadersFor(
  columns: readonly string[],
  parse: SpreadsheetParseOptions,
): CellReader[] {
  // Without na_values and keep_default_na only empty cells are missing (Tributary's rule before
  // these options existed); with either, pandas' rules apply.
  const pandasNa = parse.na_values !== undefined || parse.keep_default_na !== undefined;
  const keepDefault = parse.keep_default_na ?? true;
  const base = new Set<string>(pandasNa ? (keepDefault ? PANDAS_NA_VALUES : []) : ['']);
  const perColumn = new Map<string, Set<string>>();
  const numericNa = new Set<number>();
  const addTo = (set: Set<string>, values: unknown) => {
    for (const value of Array.isArray(values) ? values : [values]) {
      set.add(String(value));
      if (typeof value === 'number') numericNa.add(value);
    }
  };
  const na = parse.na_values;
  if (na !== undefined && (typeof na !== 'object' || Array.isArray(na))) addTo(base, na);
  else if (na !== undefined)
    for (const [column, values] of Object.entries(na))
      addTo(perColumn.get(column) ?? perColumn.set(column, new Set(base)).get(column)!, values);

  const trueValues = new Set(['True', 'true', 'TRUE', ...(parse.true_values ?? []).map(String)]);
  const falseValues = new Set([
    'False',
    'false',
    'FALSE',
    ...(parse.false_values ?? []).map(String),
  ]);
  const decimal = parse.decimal ?? '.';
  const thousands = parse.thousands ?? null;
  const normalize = numberNormalizer(decimal, thousands);
  /**
   * Another notation than "1234.5": cells are read through normalize() instead of cellValue's fast
   * path.
   */
  const otherNotation = decimal !== '.' || thousands !== null;
  const dtypeOf = (column: string): DtypeKind | undefined => {
    const dtype = parse.dtype;
    if (dtype === undefined) return undefined;
    return dtypeKind(typeof dtype === 'string' ? dtype : (dtype[column] ?? ''));
  };

  return columns.map((column) => {
    const missing = perColumn.get(column) ?? base;
    const isNa = (text: string) => missing.has(text);
    const notNumber = (value: number) => numericNa.has(value);
    switch (dtypeOf(column)) {
      case 'str':
        return (text) => (isNa(text) ? null : text);
      case 'bool':
        return (text) =>
          isNa(text)
            ? null
            : trueValues.has(text)
              ? true
              : falseValues.has(text)
                ? false
                : new BadCell(`"${text}" in column ${column} is not true or false (dtype bool)`);
      case 'int':
        return (text) => {
          if (isNa(text)) return null;
          const plain = normalize(text);
          const value = plain !== undefined && /^[+-]?\d+$/.test(plain) ? Number(plain) : undefined;
          if (value === undefined || !Number.isSafeInteger(value))
            return new BadCell(`"${text}" in column ${column} is not a whole number (dtype int)`);
          return notNumber(value) ? null : value === 0 ? 0 : value;
        };
      case 'float':
        return (text) => {
          if (isNa(text)) return null;
          const plain = normalize(text);
          const value = plain === undefined ? NaN : Number(plain);
          if (!Number.isFinite(value))
            return new BadCell(`"${text}" in column ${column} is not a number (dtype float)`);
          return notNumber(value) ? null : value === 0 ? 0 : value;
        };
      default:
        return (text) => {
          if (isNa(text)) return null;
          if (trueValues.has(text)) return true;
          if (falseValues.has(text)) return false;
          let value: FieldValue;
          if (otherNotation) {
            // Only numbers in the configured notation are numbers ("1.5" is text when the decimal
            // mark is ",").
            const plain = normalize(text);
            const read = plain === undefined ? text : cellValueByRules(plain);
            value = typeof read === 'number' ? read : text;
          } else value = cellValue(text);
          if (value === null) return ''; // an empty cell that is not a missing value (keep_default_na false)
          return typeof value === 'number' && notNumber(value) ? null : value;
        };
    }
  });
}
