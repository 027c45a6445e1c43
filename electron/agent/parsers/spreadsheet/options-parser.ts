/**
 * The spreadsheet parser's general path, for files read with pandas read_csv options (skiprows,
 * skipfooter, header=None, names, usecols, comment, quotechar, skip_blank_lines, decimal,
 * thousands, na_values, keep_default_na, true_values, false_values, dtype) with pandas' meaning.
 * Same contract as the tuned path (spreadsheet-parser.ts): byte-exact offsets, a small JSON state,
 * resumable at any record. It splits and converts every cell, so it costs more per row; files that
 * use none of these options never come here.
 */
import type { TextParser as Parser } from '../../../../shared/config/schema.js';
import type { FieldValue } from '../../../../shared/records/record.js';
import { BadCell, type CellReader, cellReadersFor } from './cell-readers.js';
import { columnNames } from './cell-values.js';
import type { ReadOptions } from './read-options.js';
import { RecordCursor, type ScannedRecord, splitCells, stripComment } from './record-scanner.js';
import type { ChunkResult, ParsedRow, SpreadsheetParser, SpreadsheetState } from './parser-types.js';
import { type FileEncoding, decodeBytes, separatorUnits } from './text-encoding.js';
import { type EncodingCache, badLineHandler, cellCount, initialState, startChunk, unclosedQuote } from './chunk-start.js';
import type { AgentMessage } from '../../../../shared/config/message.js';
import { createTimeStamper } from './time-columns.js';

/** What a header means for building rows: kept cells, their names and readers. */
interface Plan {
  /** The column names persisted in the state (every column of the file). */
  header: string[];
  /** Cells a row of the file has. */
  cells: number;
  /** Index in the row's cells of each output column. */
  keep: number[];
  names: string[];
  readers: CellReader[];
  /** Per output column: a time column (the stamper fills it in). */
  isTime: boolean[];
  /** Per time column: its index in the row's cells. */
  timeCells: number[];
}

export function createOptionsParser(config: Parser, options: ReadOptions): SpreadsheetParser {
  const { parse, separator, quote, comment, badLinesAction } = options;
  const stamper = createTimeStamper(parse, config.options?.localtz ?? 'UTC');
  const withCounter = config.options?.counter ?? false;
  const names = parse.names?.map(String);
  const skiprows = parse.skiprows;
  const skipped: (line: number) => boolean =
    skiprows === undefined ? () => false : typeof skiprows === 'number' ? (line) => line < skiprows : ((set) => (line: number) => set.has(line))(new Set(skiprows));
  const skipFooter = parse.skipfooter ?? 0;
  const skipBlankLines = parse.skip_blank_lines ?? true;
  const encodings: EncodingCache = new Map();
  const timeTexts: (string | undefined)[] = stamper.columns.map(() => undefined);
  let lastPlan: Plan | undefined;

  const planFor = (header: string[]): Plan | string => {
    const plan = optionsPlanFor(header, parse, names, stamper.columns, lastPlan);
    if (typeof plan !== 'string') lastPlan = plan;
    return plan;
  };
  const headerFor = (cells: string[], isHeaderRow: boolean) =>
    headerOf(cells, isHeaderRow, parse, names);

  function parseChunk(chunk: Buffer, previous: SpreadsheetState, final: boolean): ChunkResult {
    const start = startChunk(chunk, previous, final, options.encoding, encodings);
    const { result, state, from, encoding } = start;
    if (!encoding) return result;
    const unitOf = (char: string) =>
      encoding.width === 2 ? char.charCodeAt(0) : separatorUnits(char, encoding)[0]!;
    const cursor = new RecordCursor(chunk, from, {
      separator: separatorUnits(separator, encoding),
      width: encoding.width,
      littleEndian: encoding.littleEndian,
      final,
      leadByte: encoding.leadByte,
      quote: unitOf(quote),
      comment: comment === null ? -1 : unitOf(comment),
    });
    // skipfooter: the last rows of the file (blank lines not counted, as in pandas) are not rows;
    // until the file is complete any row may be among them, so the last skipfooter rows of a chunk
    // (and what follows them) wait for the next one.
    const records: ScannedRecord[] = [];
    while (cursor.next())
      records.push({
        start: cursor.start,
        contentEnd: cursor.contentEnd,
        end: cursor.end,
        newlines: cursor.newlines,
        unterminatedQuote: cursor.unterminatedQuote,
      });
    const rowsEnd = footerStart(records, chunk, encoding, options);
    let plan = state.header === null ? undefined : planFor(state.header);
    if (typeof plan === 'string') return { ...result, fatal: { line: state.linesSeen + 1, message: plan } };

    const bad = badLineHandler(result, badLinesAction);
    const consume = (record: ScannedRecord, row: boolean) => {
      if (row) state.rowsSeen += 1;
      state.linesSeen += record.newlines;
      result.consumedBytes = record.end;
    };

    for (let r = 0; r < rowsEnd; r += 1) {
      const record = records[r]!;
      const line = state.linesSeen + 1;
      if (skipped(state.linesSeen)) {
        consume(record, false);
        continue;
      }
      let text = decodeBytes(chunk, record.start, record.contentEnd, encoding);
      if (comment !== null) {
        const kept = stripComment(text, separator, quote, comment);
        // A line that is only a comment is skipped whatever skip_blank_lines says (pandas).
        if (kept.trim() === '' && text.trim() !== '') {
          consume(record, false);
          continue;
        }
        text = kept;
      }
      if (text.length === 0 && skipBlankLines) {
        consume(record, false);
        continue;
      }
      const cells = text.length === 0 ? [''] : splitCells(text, separator, quote);
      if (plan === undefined) {
        const headerRow = options.header !== null && state.rowsSeen === options.header;
        if (options.header !== null && !headerRow) {
          consume(record, true); // a row before the header
          continue;
        }
        const header = headerFor(cells, headerRow);
        if (typeof header === 'string' || typeof (plan = planFor(header)) === 'string') {
          result.fatal = { line, message: `${typeof header === 'string' ? header : (plan as string)} (line ${line})` };
          return result;
        }
        state.header = header;
        if (headerRow) {
          consume(record, true);
          continue;
        }
      }
      let problem: string | AgentMessage | undefined;
      if (record.unterminatedQuote) problem = unclosedQuote(line);
      else if (text.length === 0) problem = undefined;
      else if (cells.length !== plan.cells) problem = cellCount(line, cells.length, plan.cells);
      if (problem === undefined) {
        const row = buildRow(plan, text.length === 0 ? undefined : cells, line, result);
        if (typeof row === 'string') problem = row;
        else {
          state.counter += 1;
          if (withCounter) row.fieldvalues.counter = state.counter;
          result.rows.push(row);
        }
      }
      if (problem !== undefined && bad(line, problem)) return result;
      consume(record, true);
    }
    if (final && skipFooter > 0 && result.fatal === undefined)
      for (let r = rowsEnd; r < records.length; r += 1) consume(records[r]!, false);
    return result;
  }

  /**
   * A row from the cells of a line (undefined: a blank line kept by skip_blank_lines false: all
   * null).
   */
  function buildRow(
    plan: Plan,
    cells: string[] | undefined,
    line: number,
    result: ChunkResult,
  ): ParsedRow | string {
    const fieldvalues: Record<string, FieldValue> = {};
    for (let k = 0; k < plan.keep.length; k += 1) {
      const name = plan.names[k]!;
      if (cells === undefined || plan.isTime[k]) {
        fieldvalues[name] = null;
        continue;
      }
      const value = plan.readers[k]!(cells[plan.keep[k]!]!);
      if (value instanceof BadCell) return `Line ${line}: ${value.message}.`;
      fieldvalues[name] = value;
    }
    for (let t = 0; t < timeTexts.length; t += 1)
      timeTexts[t] = cells === undefined ? '' : cells[plan.timeCells[t]!];
    return stamper.stamp(fieldvalues, timeTexts, line, result);
  }

  return { initialState, parseChunk };
}

/** The plan for a persisted header, or the message of why the options do not fit the file. */
function optionsPlanFor(
  header: string[],
  parse: ReadOptions['parse'],
  names: string[] | undefined,
  timeColumns: readonly { name: string }[],
  lastPlan: Plan | undefined,
): Plan | string {
  if (
    lastPlan &&
    lastPlan.header.length === header.length &&
    lastPlan.header.every((name, c) => name === header[c])
  )
    return lastPlan;
  let keep = header.map((_, c) => c);
  let output = header;
  if (parse.usecols) {
    const byPosition = parse.usecols.every((u) => typeof u === 'number');
    if (byPosition) {
      const beyond = parse.usecols.find((u) => (u as number) >= header.length);
      if (beyond !== undefined) return `usecols names position ${beyond}, but the file has ${header.length} columns (0 to ${header.length - 1})`;
      keep = [...new Set(parse.usecols as number[])].sort((a, b) => a - b);
    } else {
      const missing = parse.usecols.find((u) => !header.includes(String(u)));
      if (missing !== undefined) return `usecols names the column "${missing}", which is not in the header (${header.join(', ')})`;
      keep = header.flatMap((name, c) => (parse.usecols!.map(String).includes(name) ? [c] : []));
    }
    output = keep.map((c) => header[c]!);
    // names may label just the kept columns.
    if (names && names.length === keep.length && names.length !== header.length) output = names;
  }
  const missingTime = timeColumns.find((column) => !output.includes(column.name));
  if (missingTime) return `The time stamp column "${missingTime.name}" is not among the columns read (${output.join(', ')})`;
  const timeCells = timeColumns.map((column) => keep[output.indexOf(column.name)]!);
  return {
    header: [...header],
    cells: header.length,
    keep,
    names: output,
    readers: cellReadersFor(output, parse),
    isTime: output.map((name) => timeColumns.some((column) => column.name === name)),
    timeCells,
  };
}

/** The persisted header for a header row's (or, without one, the first row's) cells. */
function headerOf(
  cells: string[],
  isHeaderRow: boolean,
  parse: ReadOptions['parse'],
  names: string[] | undefined,
): string[] | string {
  const fromFile = isHeaderRow ? columnNames(cells) : cells.map((_, c) => String(c));
  if (!names) return fromFile;
  if (names.length === cells.length) return names;
  if (parse.usecols && names.length === parse.usecols.length) return fromFile;
  return `names has ${names.length} names, but the file has ${cells.length} columns`;
}

/** Where the footer (the last skipfooter non-blank records) starts among the chunk's records. */
function footerStart(
  records: readonly ScannedRecord[],
  chunk: Buffer,
  encoding: FileEncoding,
  options: ReadOptions,
): number {
  const { separator, quote, comment } = options;
  const skipFooter = options.parse.skipfooter ?? 0;
  let start = records.length;
  for (let footer = 0; footer < skipFooter && start > 0;) {
    start -= 1;
    const record = records[start]!;
    const text =
      record.contentEnd === record.start
        ? ''
        : decodeBytes(chunk, record.start, record.contentEnd, encoding);
    if ((comment === null ? text : stripComment(text, separator, quote, comment)).length > 0)
      footer += 1;
  }
  return start;
}
