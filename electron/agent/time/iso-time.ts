/**
 * The agent's one helper for record time stamps as text (ISO 8601 UTC, e.g.
 * 2026-01-05T06:00:00.000000Z): written fast from the values a parser's hot loop has (milliseconds
 * of a whole second plus microseconds, without bigint arithmetic for every row), and read fast back
 * into epoch milliseconds (BSON dates) or microseconds (the KPI history). The canonical writer,
 * isoMicros, is in shared/records/record.ts (the console uses it too); everything here gives
 * exactly its texts, and reads texts exactly as Date or parseTimestampToMicros would.
 */
import { parseTimestampToMicros } from '../../../shared/api/spec-time.js';
import { isoFromMicros, isoMicros } from '../../../shared/records/record.js';
import { daysFromCivil, daysInMonth } from './wall-time.js';

export { isoFromMicros, isoMicros };

/** isoMicros of the instant `utcMs` plus `microsecond` (0..999999), byte for byte the same text. */
export function isoFromUtcMs(utcMs: number, microsecond: number): string {
  const micros = utcMs * 1000 + microsecond;
  return Number.isSafeInteger(micros) ? isoFromMicros(micros) : isoMicros(microsFromUtcMs(utcMs, microsecond));
}

/** BigInt(utcMs) * 1000n + BigInt(microsecond), through a plain number when that is exact. */
export function microsFromUtcMs(utcMs: number, microsecond: number): bigint {
  // |utcMs| ≤ 9e12 and |microsecond| < 1e6 keep the sum below 2^53, so it is exact.
  if (Number.isInteger(utcMs) && utcMs >= -9e12 && utcMs <= 9e12 && Number.isInteger(microsecond) && microsecond > -1_000_000 && microsecond < 1_000_000) {
    return BigInt(utcMs * 1000 + microsecond);
  }
  return BigInt(utcMs) * 1000n + BigInt(microsecond);
}

/** Epoch ms of `YYYY-MM-DDTHH:MM:SS[.f{1,9}]Z` with every field in range, else NaN (not decided here). */
function fastIsoMs(text: string): number {
  const n = text.length;
  if (n < 20 || n > 30 || text.charCodeAt(n - 1) !== 90 /* Z */) return Number.NaN;
  if (text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45 || text.charCodeAt(10) !== 84 || text.charCodeAt(13) !== 58 || text.charCodeAt(16) !== 58)
    return Number.NaN;
  const y0 = text.charCodeAt(0) - 48, y1 = text.charCodeAt(1) - 48, y2 = text.charCodeAt(2) - 48, y3 = text.charCodeAt(3) - 48;
  const mo0 = text.charCodeAt(5) - 48, mo1 = text.charCodeAt(6) - 48, d0 = text.charCodeAt(8) - 48, d1 = text.charCodeAt(9) - 48;
  const h0 = text.charCodeAt(11) - 48, h1 = text.charCodeAt(12) - 48, mi0 = text.charCodeAt(14) - 48, mi1 = text.charCodeAt(15) - 48;
  const s0 = text.charCodeAt(17) - 48, s1 = text.charCodeAt(18) - 48;
  // A non-digit is negative here (high bits set) or above 9.
  if (((y0 | y1 | y2 | y3 | mo0 | mo1 | d0 | d1 | h0 | h1 | mi0 | mi1 | s0 | s1) & ~15) !== 0) return Number.NaN;
  if (y0 > 9 || y1 > 9 || y2 > 9 || y3 > 9 || mo0 > 9 || mo1 > 9 || d0 > 9 || d1 > 9 || h0 > 9 || h1 > 9 || mi0 > 9 || mi1 > 9 || s0 > 9 || s1 > 9)
    return Number.NaN;
  const year = y0 * 1000 + y1 * 100 + y2 * 10 + y3;
  const month = mo0 * 10 + mo1;
  const day = d0 * 10 + d1;
  const hour = h0 * 10 + h1;
  const minute = mi0 * 10 + mi1;
  const second = s0 * 10 + s1;
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return Number.NaN;
  if (day > 28 && day > daysInMonth(year, month)) return Number.NaN;
  let millis = 0;
  if (n > 20) {
    if (text.charCodeAt(19) !== 46 /* . */ || n === 21) return Number.NaN;
    // Date keeps the first three fraction digits and drops the rest.
    for (let i = 20; i < n - 1; i += 1) {
      const digit = text.charCodeAt(i) - 48;
      if (digit >>> 0 > 9) return Number.NaN;
      if (i < 23) millis = millis * 10 + digit;
    }
    if (n === 22) millis *= 100;
    else if (n === 23) millis *= 10;
  }
  return daysFromCivil(year, month, day) * 86_400_000 + hour * 3_600_000 + minute * 60_000 + second * 1000 + millis;
}

/**
 * `new Date(text).getTime()` (NaN when invalid), without Date's parser for plain ISO UTC texts.
 * (That the fast reading agrees with the engine's Date is a property test: iso-time.test.ts.)
 */
export function isoToEpochMs(text: string): number {
  const ms = fastIsoMs(text);
  return ms === ms ? ms : new Date(text).getTime();
}

/**
 * Epoch microseconds of a time stamp text as `parseTimestampToMicros` reads it (ISO 8601 or the
 * spec form), fast for plain ISO UTC texts; undefined when unreadable.
 */
export function isoToEpochMicros(text: string): number | undefined {
  // parseTimestampToMicros reads six fraction digits at most: longer texts go its way.
  const ms = text.length <= 27 ? fastIsoMs(text) : Number.NaN;
  if (ms === ms) {
    // fastIsoMs took the first three fraction digits: add the next three.
    let micros = 0;
    for (let i = 23, digits = 0; digits < 3; i += 1, digits += 1) micros = micros * 10 + (i < text.length - 1 ? text.charCodeAt(i) - 48 : 0);
    const exact = ms * 1000 + micros;
    // Beyond 2^53 (after the year 2255) a number rounds: round the way the general path does.
    if (Number.isSafeInteger(exact)) return exact;
  }
  const micros = parseTimestampToMicros(text);
  return micros === undefined ? undefined : Number(micros);
}
