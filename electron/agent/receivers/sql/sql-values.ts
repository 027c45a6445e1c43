import type { z } from 'zod';
import type { SqlStateFieldSchema } from '../../../../shared/config/schema.js';
import { SQL_DATETIME_PATTERN } from '../../../../shared/config/receivers/sql/rules.js';
import { type FieldValue, isoMicros } from '../../../../shared/records/record.js';
import { boundedJsonText } from '../../decoding/bounded-json.js';
import { isValidWallTime, type WallTime } from '../../time/wall-time.js';
import { wallTimeToUtcMicros } from '../../time/zoned.js';

export type StateField = z.infer<typeof SqlStateFieldSchema>;
export type StateDataType = StateField['data_type'];

/**
 * A date-time cell as the database holds it: wall-clock text `YYYY-MM-DD HH:MM:SS[.fffffff]`,
 * plus the offset (`+HH:MM`) when the column type has a zone (timestamptz, TIMESTAMP read in a UTC
 * session, datetimeoffset). Kept as text so that a state value round-trips exactly.
 */
export interface SqlDateTime {
  kind: 'datetime';
  wall: string;
  offset?: string;
}

/**
 * A value that cannot be kept (a json column nested deeper or bigger than the bounds): the record
 * gets null in its place and the stream a marker naming the row and column; the rows go on.
 */
export interface SqlUnreadable {
  kind: 'unreadable';
  reason: string;
  /** What is wrong with the JSON value (the bounds it passes), in bounded-json's words. */
  problem: string;
}

/** One value of a result row after the driver layer: what records carry, a date-time, or what cannot be kept. */
export type SqlCell = null | boolean | number | string | SqlDateTime | SqlUnreadable;

/** A state value bound to a placeholder, as text plus its declared type; drivers map it to their types. */
export interface BoundValue {
  name: string;
  type: StateDataType;
  value: string;
}

/** Values bound before a stream has ever read a row (initial_value overrides; restream returns here). */
export const DEFAULT_INITIAL_VALUES: Record<StateDataType, string> = {
  integer: '0',
  float: '0',
  string: '',
  datetime: '1900-01-01 00:00:00',
};

export function isDateTime(cell: SqlCell): cell is SqlDateTime {
  return typeof cell === 'object' && cell !== null && cell.kind === 'datetime';
}

export function isUnreadable(cell: SqlCell): cell is SqlUnreadable {
  return typeof cell === 'object' && cell !== null && cell.kind === 'unreadable';
}

/** `2026-01-05 06:00:00.5+01` → wall `2026-01-05 06:00:00.5`, offset `+01:00`; undefined when not a date-time. */
export function parseDateTimeText(text: string): SqlDateTime | undefined {
  const m = SQL_DATETIME_PATTERN.exec(text.trim());
  if (!m) return undefined;
  const [, y, mo, d, h = '00', mi = '00', s = '00', fraction, zone] = m;
  const wall = `${y}-${mo}-${d} ${h}:${mi}:${s}${fraction ? `.${fraction}` : ''}`;
  if (!zone) return { kind: 'datetime', wall };
  if (zone.toUpperCase() === 'Z') return { kind: 'datetime', wall, offset: '+00:00' };
  const digits = zone.slice(1).replace(':', '');
  return { kind: 'datetime', wall, offset: `${zone[0]}${digits.slice(0, 2)}:${digits.slice(2, 4) || '00'}` };
}

/** The text a date-time state value is stored and bound as. */
export function dateTimeText(cell: SqlDateTime): string {
  return cell.offset ? `${cell.wall}${cell.offset}` : cell.wall;
}

export function initialStateValue(field: StateField): string {
  if (field.initial_value === undefined) return DEFAULT_INITIAL_VALUES[field.data_type];
  const text = String(field.initial_value).trim();
  if (field.data_type !== 'datetime') return text;
  const parsed = parseDateTimeText(text);
  return parsed ? dateTimeText(parsed) : text;
}

/**
 * The state text of a cell for a state field, or undefined when the cell cannot be one (NULL, or a
 * value of another kind): the previous value is then kept.
 */
export function stateValueOf(dataType: StateDataType, cell: SqlCell): string | undefined {
  if (cell === null || isUnreadable(cell)) return undefined;
  if (isDateTime(cell)) return dateTimeText(cell);
  if (dataType === 'datetime') {
    if (typeof cell !== 'string') return undefined;
    const parsed = parseDateTimeText(cell);
    return parsed ? dateTimeText(parsed) : undefined;
  }
  if (dataType === 'integer') {
    const text = String(cell);
    return /^[+-]?\d+$/.test(text) ? text : undefined;
  }
  if (dataType === 'float') return Number.isFinite(Number(cell)) ? String(cell) : undefined;
  return String(cell);
}

/** Wall-time fields of a date-time cell, or undefined when they are no real date (0000-00-00, 24:00). */
export function wallTimeOf(cell: SqlDateTime): WallTime | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?$/.exec(cell.wall);
  if (!m) return undefined;
  const wall: WallTime = {
    year: Number(m[1]),
    month: Number(m[2]),
    day: Number(m[3]),
    hour: Number(m[4]),
    minute: Number(m[5]),
    second: Number(m[6]),
    microsecond: Number((m[7] ?? '').padEnd(6, '0').slice(0, 6)),
  };
  if (cell.offset) {
    const sign = cell.offset.startsWith('-') ? -1 : 1;
    wall.offsetMinutes = sign * (Number(cell.offset.slice(1, 3)) * 60 + Number(cell.offset.slice(4, 6)));
  }
  return isValidWallTime(wall) ? wall : undefined;
}

/** Epoch microseconds of a date-time cell; a wall time without offset is read in `timeZone`. */
export function dateTimeMicros(cell: SqlDateTime, timeZone: string): bigint | undefined {
  const wall = wallTimeOf(cell);
  return wall ? wallTimeToUtcMicros(wall, timeZone).micros : undefined;
}

/** A cell as a record field value: date-times become ISO 8601 UTC with microseconds. */
export function fieldValueOf(cell: SqlCell, timeZone: string): FieldValue {
  if (isUnreadable(cell)) return null;
  if (!isDateTime(cell)) return cell;
  const micros = dateTimeMicros(cell, timeZone);
  return micros === undefined ? dateTimeText(cell) : isoMicros(micros);
}

/**
 * Exact decimal text (DECIMAL, NUMERIC, BIGINT) as a number when the number says the same, else
 * as text: 12.5000 → 12.5, but 12345678901234567890 or 0.1234567890123456789 stay text so that no
 * digit is lost.
 */
export function decimalValue(text: string): number | string {
  const trimmed = text.trim();
  if (!/^[+-]?\d+(\.\d+)?$/.test(trimmed)) return trimmed;
  let canonical = trimmed.replace(/^\+/, '');
  if (canonical.includes('.')) canonical = canonical.replace(/0+$/, '').replace(/\.$/, '');
  const negative = canonical.startsWith('-');
  canonical = (negative ? canonical.slice(1) : canonical).replace(/^0+(?=\d)/, '');
  if (canonical === '0') return 0;
  canonical = (negative ? '-' : '') + canonical;
  const number = Number(canonical);
  return String(number) === canonical ? number : trimmed;
}

/**
 * A driver value that is none of the record types: bytes as base64, JSON and arrays as JSON text
 * (within the bounds of decoding/bounded-json.ts: a json value nested 6,000 deep is unreadable, not
 * a stack overflow that stops the stream at that row for good).
 */
export function plainValue(value: unknown): SqlCell {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'bigint') return decimalValue(value.toString());
  if (Buffer.isBuffer(value)) return value.toString('base64');
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : isoMicros(BigInt(value.getTime()) * 1000n);
  const json = boundedJsonText(value);
  return 'text' in json ? json.text : { kind: 'unreadable', reason: `a JSON value ${json.problem}`, problem: json.problem };
}
