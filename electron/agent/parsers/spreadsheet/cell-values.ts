/**
 * Cell text → record values, and header names → column names. Typing is per cell (a file column
 * may mix numbers and text, e.g. an error code column) and conservative: only text that reads back
 * exactly becomes a number.
 */
import type { FieldValue } from '../../../../shared/records/record.js';

const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const LEADING_ZERO = /^[+-]?0\d/;
const INTEGER = /^[+-]?\d+$/;

/** 10^k for k = 0..15, all exact doubles. */
export const POWERS_OF_TEN = Array.from({ length: 16 }, (_, k) => 10 ** k);

/**
 * Empty → null; true/false (any of true, True, TRUE) → boolean; numbers (ints, floats, negative,
 * exponent) → number. Stays text: leading zeros ("007" is an id, not 7), integers beyond 2^53
 * (serial numbers would silently change), values that overflow, and everything else.
 *
 * The common cells (plain decimals of up to 15 digits, text) are read with a single pass over the
 * characters; anything else (surrounding whitespace, exponents, long digit strings) goes through
 * the regular expressions, which define the rules.
 */
export function cellValue(text: string): FieldValue {
  return cellValueAt(text, 0, text.length);
}

/** cellValue(line.slice(start, end)), without making that string unless the value is text. */
export function cellValueAt(line: string, start: number, end: number): FieldValue {
  if (end <= start) return null;
  const first = line.charCodeAt(start);
  const last = line.charCodeAt(end - 1);
  // Printable ASCII at both ends: nothing for trim() to remove.
  if (first <= 0x20 || first >= 0x7f || last <= 0x20 || last >= 0x7f)
    return cellValueByRules(line.slice(start, end));
  let i = start;
  let negative = false;
  if (first === 0x2b || first === 0x2d) {
    negative = first === 0x2d;
    i += 1;
  } else if ((first < 0x30 || first > 0x39) && first !== 0x2e) {
    // Not a number: text, or one of the boolean spellings.
    const text = line.slice(start, end);
    if (first === 0x74 || first === 0x54) return text === 'true' || text === 'True' || text === 'TRUE' ? true : text;
    if (first === 0x66 || first === 0x46) return text === 'false' || text === 'False' || text === 'FALSE' ? false : text;
    return text;
  }
  // [+-]? digits [. digits] — the digits read into one integer mantissa.
  let mantissa = 0;
  const integerStart = i;
  let code = 0;
  while (i < end && (code = line.charCodeAt(i)) >= 0x30 && code <= 0x39) {
    mantissa = mantissa * 10 + (code - 0x30);
    i += 1;
  }
  const integerDigits = i - integerStart;
  let fractionDigits = 0;
  if (i < end && code === 0x2e) {
    i += 1;
    const fractionStart = i;
    while (i < end && (code = line.charCodeAt(i)) >= 0x30 && code <= 0x39) {
      mantissa = mantissa * 10 + (code - 0x30);
      i += 1;
    }
    fractionDigits = i - fractionStart;
  }
  // Only an exponent may follow the digits of a number: the rules read it; anything else is text.
  if (i < end)
    return code === 0x65 || code === 0x45
      ? cellValueByRules(line.slice(start, end))
      : line.slice(start, end);
  const digits = integerDigits + fractionDigits;
  if (digits === 0) return line.slice(start, end);
  // More digits than a double holds exactly (and maybe an unsafe integer): the rules decide.
  if (digits > 15) return cellValueByRules(line.slice(start, end));
  // Leading zeros stay text ("007", "-00.5"), a lone zero ("0", "0.5") does not.
  if (integerDigits > 1 && line.charCodeAt(integerStart) === 0x30) return line.slice(start, end);
  // Both exact below 2^53, so the division is the correctly rounded value Number() would read.
  const value = fractionDigits === 0 ? mantissa : mantissa / POWERS_OF_TEN[fractionDigits]!;
  // -0 would be written as 0 anyway; keep records comparable.
  if (value === 0) return 0;
  return negative ? -value : value;
}

/** cellValue by its defining rules (regular expressions and Number): the reference for any text. */
export function cellValueByRules(text: string): FieldValue {
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
