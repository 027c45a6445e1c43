/**
 * Time stamps of document records (`options.localtz`, `options.parse_timestamps`): a local time in
 * localtz becomes UTC ISO text, and the first parse_timestamps field gives the record's timestamp.
 * Excel date cells arrive as wall times already (excel-cells.ts); text is read with `format`
 * (strptime) or, without one, by guessing the date format as parse_dates does.
 */
import type { DocumentTimeOptions } from '../../../../shared/config/parsers/index.js';
import type { FieldValue } from '../../../../shared/records/record.js';
import { isoFromUtcMs, isoToEpochMicros, microsFromUtcMs } from '../../time/iso-time.js';
import { guessDateTime, strptimeReader } from '../../time/strptime.js';
import type { WallTime } from '../../time/wall-time.js';
import { offsetResolver, wallNaiveMs } from '../../time/zoned.js';

export interface DocumentTimes {
  /** UTC ISO text of a wall time in localtz. */
  isoOf(wall: WallTime): string;
  /**
   * Reads the parse_timestamps fields of a record in place; returns its timestamp (epoch µs, null
   * without one), or the message why a field does not read.
   */
  stamp(fieldvalues: Record<string, FieldValue>): bigint | null | string;
}

export function createDocumentTimes(options: DocumentTimeOptions | undefined): DocumentTimes {
  const resolve = offsetResolver(options?.localtz ?? 'UTC');
  const columns = (options?.parse_timestamps ?? []).map((ts) => ({
    name: ts.field_name,
    read: ts.format ? strptimeReader(ts.format) : (text: string) => guessDateTime(text),
    describe: ts.format ? `the format ${ts.format}` : 'any known date format',
  }));
  const utcMs = (wall: WallTime) => {
    const naive = wallNaiveMs(wall);
    return naive - resolve(wall, naive).offsetMs;
  };
  // An ISO text this reader wrote (an Excel date cell): already UTC.
  const ISO_UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z$/;
  return {
    isoOf: (wall) => isoFromUtcMs(utcMs(wall), wall.microsecond),
    stamp(fieldvalues) {
      let timestamp: bigint | null = null;
      for (let t = 0; t < columns.length; t += 1) {
        const column = columns[t]!;
        const value = fieldvalues[column.name];
        if (value === undefined || value === null || value === '') continue;
        const text = String(value).trim();
        let micros: bigint;
        if (ISO_UTC.test(text)) {
          micros = BigInt(isoToEpochMicros(text) ?? Date.parse(text) * 1000);
        } else {
          const wall = column.read(text);
          if (!wall) return `"${text}" in ${column.name} does not match ${column.describe}`;
          const ms = utcMs(wall);
          fieldvalues[column.name] = isoFromUtcMs(ms, wall.microsecond);
          micros = microsFromUtcMs(ms, wall.microsecond);
        }
        if (t === 0) timestamp = micros;
      }
      return timestamp;
    },
  };
}
