/**
 * The time columns of a spreadsheet parser (parse_timestamps with a format, parse_dates guessed):
 * a cell's local time in `localtz` becomes a UTC ISO time stamp, and the first time column gives
 * the record's timestamp. Shared by both parsing paths (spreadsheet-parser.ts, options-parser.ts).
 */
import type { SpreadsheetParseOptions } from '../../../../shared/config/csv-options.js';
import type { FieldValue } from '../../../../shared/records/record.js';
import { isoFromUtcMs, microsFromUtcMs } from '../../time/iso-time.js';
import { guessDateTime, strptimeReader } from '../../time/strptime.js';
import { MinuteMemos } from './minute-memo.js';
import type { WallTime } from '../../time/wall-time.js';
import { offsetResolver, wallNaiveMs } from '../../time/zoned.js';
import type { ChunkResult, ParsedRow } from './parser-types.js';

export interface TimeColumn {
  name: string;
  read: (text: string) => WallTime | null;
  describe: string;
}

export interface TimeStamper {
  readonly columns: readonly TimeColumn[];
  /**
   * Fills in the time columns (the text of each in `texts`, in `columns` order) and makes the row,
   * or returns the message of why its line is bad.
   */
  stamp(
    fieldvalues: Record<string, FieldValue>,
    texts: readonly (string | undefined)[],
    line: number,
    result: ChunkResult,
  ): ParsedRow | string;
  /**
   * The instant the text of time column `t` stands for, as stamp() reads it, in epoch microseconds
   * (utcMs * 1000 + microsecond: exact while that is a safe integer); NaN for an empty cell
   * (stamp() writes null), -Infinity for a text the column does not read (a bad line).
   */
  instant(t: number, text: string): number;
  /**
   * instant(t, the UTF-8 text of bytes[start, end)), without making the text for one of the
   * minute before it: see MinuteMemo.
   */
  instantAt(t: number, bytes: Buffer, start: number, end: number): number;
}

export function createTimeStamper(parse: SpreadsheetParseOptions, timeZone: string): TimeStamper {
  const dayfirst = parse.dayfirst ?? false;
  const columns: TimeColumn[] = [
    ...(parse.parse_timestamps ?? []).map((ts) => ({ name: ts.field_name, read: strptimeReader(ts.format), describe: `the format ${ts.format}` })),
    ...(parse.parse_dates ?? [])
      .filter((name) => !(parse.parse_timestamps ?? []).some((ts) => ts.field_name === name))
      .map((name) => ({ name, read: (text: string) => guessDateTime(text, { dayfirst }), describe: 'any known date format' })),
  ];
  const resolveOffset = offsetResolver(timeZone);

  function stamp(
    fieldvalues: Record<string, FieldValue>,
    texts: readonly (string | undefined)[],
    line: number,
    result: ChunkResult,
  ): ParsedRow | string {
    let timestampMicros: bigint | null = null;
    for (let t = 0; t < columns.length; t += 1) {
      const column = columns[t]!;
      // A time column missing from a persisted header fails here, as it always has.
      const text = texts[t]!;
      const trimmed = text.trim();
      if (trimmed === '') {
        // A missing time is a missing value (null), as pandas reads it (NaT), not a bad line.
        fieldvalues[column.name] = null;
      } else {
        const wall = column.read(trimmed);
        if (!wall)
          return `Line ${line}: "${text}" in column ${column.name} does not match ${column.describe}.`;
        const naive = wallNaiveMs(wall);
        const offset = resolveOffset(wall, naive);
        if (offset.dst) result.dstAdjusted[offset.dst] += 1;
        const utcMs = naive - offset.offsetMs;
        fieldvalues[column.name] = isoFromUtcMs(utcMs, wall.microsecond);
        if (t === 0) timestampMicros = microsFromUtcMs(utcMs, wall.microsecond);
      }
    }
    return { fieldvalues, timestampMicros, line };
  }

  function instant(t: number, text: string): number {
    const trimmed = text.trim();
    if (trimmed === '') return Number.NaN;
    const wall = columns[t]!.read(trimmed);
    if (!wall) return Number.NEGATIVE_INFINITY;
    const naive = wallNaiveMs(wall);
    return (naive - resolveOffset(wall, naive).offsetMs) * 1000 + wall.microsecond;
  }

  const memos = new MinuteMemos(
    columns,
    (parse.parse_timestamps ?? []).map((ts) => ts.format),
    resolveOffset,
    instant,
  );
  const instantAt = (t: number, bytes: Buffer, start: number, end: number) =>
    memos.instantAt(t, bytes, start, end);

  return { columns, stamp, instant, instantAt };
}
