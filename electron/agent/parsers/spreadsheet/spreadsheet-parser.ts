/**
 * The `spreadsheet` parser for CSV: turns chunks of file bytes into rows, resumably. The caller
 * keeps a byte offset and a small JSON state per file; each call parses the complete records of
 * one chunk and says how many bytes they took, so an appended file continues exactly where it
 * stopped and memory is bounded by the chunk size, whatever the size of the file.
 */
import type { Parser as AnyParser, TextParser as Parser } from '../../../../shared/config/schema.js';
import type { FieldValue } from '../../../../shared/records/record.js';
import { cellValue, cellValueAt, columnNames } from './cell-values.js';
import { createOptionsParser } from './options-parser.js';
import type { ChunkResult, ParsedRow, SpreadsheetParser, SpreadsheetState } from './parser-types.js';
import { readOptionsOf, textParserOf } from './read-options.js';
import { RecordCursor, splitCells } from './record-scanner.js';
import { decodeBytes, separatorUnits } from './text-encoding.js';
import { type EncodingCache, badLineHandler, cellCount, initialState, startChunk, unclosedQuote } from './chunk-start.js';
import { createTimeStamper } from './time-columns.js';
import { say } from '../../../../shared/config/message.js';

/**
 * A spreadsheet or csv parser's configuration (the csv type has its separator at the top level).
 */
export type SpreadsheetParserConfig = Parser;

export { checkSpreadsheetState, readSpreadsheetState } from './parser-types.js';
export type { ChunkResult, ParsedRow, SpreadsheetParser, SpreadsheetState } from './parser-types.js';

/** What a header means for building rows, worked out once per header instead of once per row. */
interface RowPlan {
  header: string[];
  /** Per column: a time column, whose cell becomes a time stamp instead of a cell value. */
  isTime: boolean[];
  /** Per time column (in timeColumns order): its index in the header (-1 when it is not there). */
  timeIndexes: number[];
  /**
   * An object with the header's names in order, cloned for each row (much cheaper than adding the
   * names one by one); null when a name is "__proto__", which only plain assignment treats as
   * before.
   */
  template: Record<string, FieldValue> | null;
}

/**
 * Creates a parser for one spreadsheet (or csv) parser configuration. Files that use pandas
 * read_csv options beyond separator, header and encoding are read by the general path
 * (options-parser.ts); the rest by this one, tuned for speed (docs/performance.md).
 */
export function createSpreadsheetParser(
  any: SpreadsheetParserConfig | AnyParser,
): SpreadsheetParser {
  const config = textParserOf(any);
  const options = readOptionsOf(config);
  if (options.general) return createOptionsParser(config, options);
  const parse = config.options?.parse ?? {};
  const separator = options.separator;
  const headerIndex = options.header ?? 0;
  const badLinesAction = options.badLinesAction;
  const withCounter = config.options?.counter ?? false;
  const stamper = createTimeStamper(parse, config.options?.localtz ?? 'UTC');
  const timeColumns = stamper.columns;
  /** A one-character separator: lines without quotes are then read in place (see findCells). */
  const oneUnitSeparator = separator.length === 1;
  let lastPlan: RowPlan | null = null;
  /** Scratch: where each cell of a plain line starts (grown as needed). */
  let cellStarts = new Int32Array(64);
  /** Scratch: each time column's cell text in the row being built (undefined: not in header). */
  const timeTexts: (string | undefined)[] = timeColumns.map(() => undefined);

  const rowParts: RowParts = { stamper, timeTexts };
  const planFor = (header: string[]): RowPlan =>
    (lastPlan = rowPlanFor(header, timeColumns, lastPlan));

  const encodings: EncodingCache = new Map();

  function parseChunk(chunk: Buffer, previous: SpreadsheetState, final: boolean): ChunkResult {
    const start = startChunk(chunk, previous, final, options.encoding, encodings);
    const { result, state, from, encoding } = start;
    if (!encoding) return result;
    const cursor = new RecordCursor(chunk, from, {
      separator: separatorUnits(separator, encoding),
      width: encoding.width,
      littleEndian: encoding.littleEndian,
      final,
      leadByte: encoding.leadByte,
    });
    let plan = state.header === null ? null : planFor(state.header);

    const bad = badLineHandler(result, badLinesAction);
    /**
     * Takes a built row, or handles the message of why its line is bad; true when parsing must stop
     * here.
     */
    const take = (row: ParsedRow | string, line: number): boolean => {
      if (typeof row === 'string') return bad(line, row);
      state.counter += 1;
      if (withCounter) row.fieldvalues.counter = state.counter;
      result.rows.push(row);
      return false;
    };

    while (cursor.next()) {
      const line = state.linesSeen + 1;
      const text = decodeBytes(chunk, cursor.start, cursor.contentEnd, encoding);
      if (text.length === 0) {
        // Blank lines are not rows (pandas skip_blank_lines), and not bad either.
        state.linesSeen += cursor.newlines;
        result.consumedBytes = cursor.end;
        continue;
      }
      if (!cursor.mayHaveQuote && oneUnitSeparator && plan !== null && plan.template !== null) {
        // The common line: no quote, a one-character separator, a known header. Its cells are
        // found by position and read in place; only text and time cells become strings.
        const count = findCells(text);
        if (count !== plan.header.length) {
          if (bad(line, cellCount(line, count, plan.header.length)))
            return result;
        } else if (take(buildPlainRow(plan, text, line, result), line)) {
          return result;
        }
      } else {
        // A record without any quote splits plainly (what splitCells does for it too, after a
        // search).
        const cells = cursor.mayHaveQuote ? splitCells(text, separator) : text.split(separator);
        if (state.header === null || plan === null) {
          if (state.rowsSeen === headerIndex) {
            const header = headerOf(cells, timeColumns, line, result);
            if (!header) return result;
            state.header = header;
            plan = planFor(header);
          }
        } else if (cursor.unterminatedQuote) {
          if (bad(line, unclosedQuote(line)))
            return result;
        } else if (cells.length !== plan.header.length) {
          if (bad(line, cellCount(line, cells.length, plan.header.length))) return result;
        } else if (take(buildRow(plan, cells, line, result, rowParts), line)) {
          return result;
        }
      }
      state.rowsSeen += 1;
      state.linesSeen += cursor.newlines;
      result.consumedBytes = cursor.end;
    }
    return result;
  }

  /**
   * Finds where the cells of a line start (into cellStarts) for a one-character separator; returns
   * their count, as split() would.
   */
  function findCells(text: string): number {
    cellStarts[0] = 0;
    let count = 1;
    for (let i = text.indexOf(separator); i !== -1; i = text.indexOf(separator, i + 1)) {
      if (count === cellStarts.length) {
        const grown = new Int32Array(count * 2);
        grown.set(cellStarts);
        cellStarts = grown;
      }
      cellStarts[count] = i + 1;
      count += 1;
    }
    return count;
  }

  /**
   * buildRow for a line without quotes split at the one-character separator, its cells starting
   * at cellStarts (as many as the header has): the same row, read from the line in place.
   */
  function buildPlainRow(
    plan: RowPlan,
    text: string,
    line: number,
    result: ChunkResult,
  ): ParsedRow | string {
    const { header, isTime, timeIndexes } = plan;
    const count = header.length;
    const fieldvalues: Record<string, FieldValue> = { ...plan.template };
    for (let c = 0; c < count; c += 1) {
      const end = c + 1 < count ? cellStarts[c + 1]! - 1 : text.length;
      fieldvalues[header[c]!] = isTime[c] ? null : cellValueAt(text, cellStarts[c]!, end);
    }
    for (let t = 0; t < timeColumns.length; t += 1) {
      const c = timeIndexes[t]!;
      timeTexts[t] =
        c < 0
          ? undefined
          : text.slice(cellStarts[c]!, c + 1 < count ? cellStarts[c + 1]! - 1 : text.length);
    }
    return stamper.stamp(fieldvalues, timeTexts, line, result);
  }

  return { initialState, parseChunk };
}

/** The header row's column names; undefined (with result.fatal) when a time column is missing. */
function headerOf(
  cells: string[],
  timeColumns: readonly { name: string }[],
  line: number,
  result: ChunkResult,
): string[] | undefined {
  const header = columnNames(cells);
  const missing = timeColumns.find((column) => !header.includes(column.name));
  if (!missing) return header;
  // A bad option, not a bad line: stop before the header so a fixed config reads it again.
  const said = say('csv.time_column_missing', 'The time stamp column "{column}" is not in the header (line {line}). Columns: {columns}.', { column: missing.name, line, columns: header.join(', ') });
  result.fatal = { line, message: said.text, said };
  return undefined;
}

/** What building a row takes beside its cells: the time stamper and its scratch texts. */
interface RowParts {
  stamper: ReturnType<typeof createTimeStamper>;
  timeTexts: (string | undefined)[];
}

/**
 * A row from its cells (a line with quotes, or a separator of several characters), or the message
 * of why its line is bad.
 */
function buildRow(
  plan: RowPlan,
  cells: string[],
  line: number,
  result: ChunkResult,
  { stamper, timeTexts }: RowParts,
): ParsedRow | string {
  const { header, isTime, timeIndexes, template } = plan;
  let fieldvalues: Record<string, FieldValue>;
  if (template !== null) {
    // Every name of the template is assigned, in the same order as into an empty object. A time
    // column's cell is only a placeholder here, keeping the column order: it is replaced below.
    fieldvalues = { ...template };
    for (let c = 0; c < header.length; c += 1)
      fieldvalues[header[c]!] = isTime[c] ? cells[c]! : cellValue(cells[c]!);
  } else {
    // A "__proto__" column: plain assignment of every value, whatever that does to the object.
    fieldvalues = {};
    for (let c = 0; c < header.length; c += 1) fieldvalues[header[c]!] = cellValue(cells[c]!);
  }
  for (let t = 0; t < timeTexts.length; t += 1) timeTexts[t] = cells[timeIndexes[t]!];
  return stamper.stamp(fieldvalues, timeTexts, line, result);
}

/** The plan of a header: the last one when the header is the same (files rarely change theirs). */
function rowPlanFor(
  header: string[],
  timeColumns: readonly { name: string }[],
  last: RowPlan | null,
): RowPlan {
  if (
    last !== null &&
    last.header.length === header.length &&
    last.header.every((name, c) => name === header[c])
  )
    return last;
  const timeIndexes = timeColumns.map((column) => header.indexOf(column.name));
  const isTime = header.map((_, c) => timeIndexes.includes(c));
  let template: Record<string, FieldValue> | null = null;
  if (!header.includes('__proto__')) {
    template = {};
    for (const name of header) template[name] = null;
  }
  return { header: [...header], isTime, timeIndexes, template };
}
