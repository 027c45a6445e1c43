/**
 * The fast path of convert_timestamps for values that are ISO UTC texts already (as parsers write
 * them): read and written back without Date or BigInt. It gives exactly what the general path
 * (isoUtcMicros, then isoMicros) gives, or declines (undefined) and leaves the value to it. Texts
 * in a strptime format or a guessed shape take the time modules' readers (strptime.ts, zoned.ts,
 * iso-time.ts) instead.
 */
import { daysInMonth } from '../../time/wall-time.js';

/** The value of `width` ASCII digits at `at`, or -1 (also when the text is too short). */
function digitsAt(text: string, at: number, width: number): number {
  if (at + width > text.length) return -1;
  let value = 0;
  for (let i = at; i < at + width; i += 1) {
    const digit = text.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}

/**
 * What convert_timestamps writes for an ISO UTC text `YYYY-MM-DDTHH:MM:SS[.f{1,9}]Z` whose fields
 * are all in range: the same instant with six fraction digits (the text itself when it has them).
 * Undefined for anything else, and before 1970 for texts with microseconds below the millisecond
 * (isoMicros decides how those read).
 */
export function fastIsoUtc(text: string): string | undefined {
  const n = text.length;
  if (n < 20 || n > 30 || text.charCodeAt(n - 1) !== 90 /* Z */) return undefined;
  if (text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45 || text.charCodeAt(10) !== 84 || text.charCodeAt(13) !== 58 || text.charCodeAt(16) !== 58)
    return undefined;
  const year = digitsAt(text, 0, 4);
  const month = digitsAt(text, 5, 2);
  const day = digitsAt(text, 8, 2);
  const hour = digitsAt(text, 11, 2);
  const minute = digitsAt(text, 14, 2);
  const second = digitsAt(text, 17, 2);
  if (year < 0 || month < 1 || month > 12 || day < 1 || hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59) return undefined;
  if (day > 28 && day > daysInMonth(year, month)) return undefined;
  if (n === 20) return `${text.slice(0, 19)}.000000Z`;
  const count = n - 21;
  if (text.charCodeAt(19) !== 46 /* . */ || count < 1 || digitsAt(text, 20, count) < 0) return undefined;
  // Microseconds below the millisecond before 1970: left to the general path.
  if (year < 1970 && count > 3 && digitsAt(text, 23, Math.min(count, 6) - 3) !== 0) return undefined;
  if (count === 6) return text;
  return count > 6 ? `${text.slice(0, 26)}Z` : `${text.slice(0, 20 + count)}${'000000'.slice(count)}Z`;
}
