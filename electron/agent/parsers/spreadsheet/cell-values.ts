/**
 * Cell text → record values, and header names → column names. Typing is per cell (a file column
 * may mix numbers and text, e.g. an error code column) and conservative: only text that reads back
 * exactly becomes a number.
 */
import type { FieldValue } from '../../../../shared/records/record.js';

const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const LEADING_ZERO = /^[+-]?0\d/;
const INTEGER = /^[+-]?\d+$/;

/**
 * Empty → null; true/false (any of true, True, TRUE) → boolean; numbers (ints, floats, negative,
 * exponent) → number. Stays text: leading zeros ("007" is an id, not 7), integers beyond 2^53
 * (serial numbers would silently change), values that overflow, and everything else.
 */
export function cellValue(text: string): FieldValue {
  if (text === '') return null;
  const trimmed = text.trim();
  if (trimmed === 'true' || trimmed === 'True' || trimmed === 'TRUE') return true;
  if (trimmed === 'false' || trimmed === 'False' || trimmed === 'FALSE') return false;
  if (!NUMBER.test(trimmed) || LEADING_ZERO.test(trimmed)) return text;
  const value = Number(trimmed);
  if (!Number.isFinite(value)) return text;
  if (INTEGER.test(trimmed) && !Number.isSafeInteger(value)) return text;
  // -0 would be written as 0 anyway; keep records comparable.
  return value === 0 ? 0 : value;
}

/**
 * Column names from header cells: trimmed; an empty name becomes "Unnamed: <index>" (as pandas
 * names it); a repeated name gets _2, _3 … so that no column hides another.
 */
export function columnNames(cells: string[]): string[] {
  const trimmed = cells.map((cell, index) => cell.trim() || `Unnamed: ${index}`);
  const taken = new Set<string>();
  const counts = new Map<string, number>();
  return trimmed.map((name) => {
    if (!taken.has(name)) {
      taken.add(name);
      counts.set(name, 1);
      return name;
    }
    let n = counts.get(name)!;
    let candidate: string;
    do {
      n += 1;
      candidate = `${name}_${n}`;
    } while (taken.has(candidate) || trimmed.includes(candidate));
    counts.set(name, n);
    taken.add(candidate);
    return candidate;
  });
}
