import type { FieldValue } from '../../../../shared/records/record.js';

/** The values of a row before its columns: timestamp, capturetime, record_id. */
export const FIXED_CELLS = 3;

/**
 * A value's CSV cell: empty for null (and for a number JSON has no text for: NaN, ±Infinity, as the
 * outbox's JSON made them before), quoted only when it holds a quote, comma or line break.
 */
export function cell(value: FieldValue | undefined): string {
  if (value === null || value === undefined) return '';
  // A number or boolean never needs quotes: most cells of a machine's rows.
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'boolean') return String(value);
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A cell as a piece of a `join`: a finite number or a boolean as itself (its text there is String(value)), no string made per value. */
export const joined = (value: FieldValue | undefined): string | number | boolean => ((typeof value === 'number' && Number.isFinite(value)) || typeof value === 'boolean' ? value : cell(value));

/**
 * The CSV text of rows `[timestamp, capturetime, record_id, ...values]` in a file's column order,
 * each line ending in a newline (`fileColumns` holds every column of the rows, maybe more: those
 * are empty). Written by one `join` (cells and separators in one list): a line built by `+=` per
 * cell was a tree of pieces, the largest allocation of the transmit at 20,000 OPC UA tags a second.
 */
export function csvText(fileColumns: readonly string[], columns: readonly string[], rows: readonly FieldValue[][]): string {
  const same = sameColumns(fileColumns, columns);
  const at = new Map(columns.map((c, i) => [c, FIXED_CELLS + i]));
  const order = same ? undefined : fileColumns.map((c) => at.get(c) ?? -1);
  const parts: (string | number | boolean)[] = [];
  for (const row of rows) {
    parts.push(cell(row[0]), ',', cell(row[1]), ',', cell(row[2]));
    if (order) for (const i of order) parts.push(',', i < 0 ? '' : joined(row[i]));
    else for (let i = FIXED_CELLS; i < row.length; i += 1) parts.push(',', joined(row[i]));
    parts.push('\n');
  }
  return parts.join('');
}

export function sameColumns(a: readonly string[], b: readonly string[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i += 1) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * The cells of CSV lines as written by `csvText` (each line ends in a newline; a quoted cell may
 * hold commas, quotes and line breaks), each cell as its text in the line: still quoted.
 */
export function splitLines(text: string): string[][] {
  const lines: string[][] = [];
  let cells: string[] = [];
  let start = 0;
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      // To the closing quote: a doubled quote is part of the cell.
      i += 1;
      for (;;) {
        const q = text.indexOf('"', i);
        if (q < 0) throw new Error('A CSV line of the outbox ends inside a quoted cell.');
        if (text.charCodeAt(q + 1) === 34) i = q + 2;
        else {
          i = q + 1;
          break;
        }
      }
      continue;
    }
    if (c === 44 /* , */ || c === 10 /* \n */) {
      cells.push(text.slice(start, i));
      start = i + 1;
      if (c === 10) {
        lines.push(cells);
        cells = [];
      }
    }
    i += 1;
  }
  if (start !== text.length || cells.length > 0) throw new Error('A CSV line of the outbox does not end in a newline.');
  return lines;
}

/** The text of a cell as `cell` wrote it: unquoted. */
export function unquote(raw: string): string {
  return raw.charCodeAt(0) === 34 ? raw.slice(1, -1).replace(/""/g, '"') : raw;
}

/** Lines written in `columns` order, laid out in `fileColumns` order (empty where a file column is not among them). */
export function reorderLines(text: string, fileColumns: readonly string[], columns: readonly string[]): string {
  const at = new Map(columns.map((c, i) => [c, FIXED_CELLS + i]));
  const order = fileColumns.map((c) => at.get(c) ?? -1);
  const parts: string[] = [];
  for (const cells of splitLines(text)) {
    parts.push(cells[0]!, ',', cells[1]!, ',', cells[2]!);
    for (const i of order) parts.push(',', i < 0 ? '' : cells[i]!);
    parts.push('\n');
  }
  return parts.join('');
}
