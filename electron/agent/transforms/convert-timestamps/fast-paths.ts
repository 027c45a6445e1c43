/**
 * Fast paths of convert_timestamps for the common cases. Each one either gives exactly what the
 * general path (isoUtcMicros / parseStrptime + wallTimeToUtcMicros, then isoMicros) gives, or
 * declines (undefined / false) and leaves the value to the general path:
 * - ISO UTC texts (already converted): read and written back without Date or BigInt;
 * - strptime formats made only of fixed-width numeric directives and literals, with the zone
 *   offset looked up once per local minute (as zoned.ts caches it) and ISO text written directly.
 */
import { isoMicros } from '../../../../shared/records/record.js';
import { wallTimeToUtcMicros } from '../../time/zoned.js';

const MS_PER_DAY = 86_400_000;
const MS_PER_HOUR = 3_600_000;
// 0000-01-01 and 10000-01-01: toISOString writes 4-digit years in between.
const FIRST_4_DIGIT_MS = -62_167_219_200_000;
const FIRST_5_DIGIT_MS = 253_402_300_800_000;

const TWO_DIGITS = Array.from({ length: 100 }, (_, i) => String(i).padStart(2, '0'));
const THREE_DIGITS = Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, '0'));

/** Days in a month of the proleptic Gregorian calendar. */
function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  return era * 146_097 + yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear - 719_468;
}

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

// ------------------------------------------------------------------ writing ISO text

let hourKey = Number.NaN;
let hourPrefix = '';

/** `YYYY-MM-DDTHH:` of the hour `key` (hours since the epoch), cached for runs of one hour. */
function prefixOfHour(key: number): string {
  if (key !== hourKey) {
    const days = Math.floor(key / 24);
    // civil_from_days (H. Hinnant).
    const z = days + 719_468;
    const era = Math.floor(z / 146_097);
    const dayOfEra = z - era * 146_097;
    const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365);
    const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
    const mp = Math.floor((5 * dayOfYear + 2) / 153);
    const day = dayOfYear - Math.floor((153 * mp + 2) / 5) + 1;
    const month = mp < 10 ? mp + 3 : mp - 9;
    const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
    hourPrefix = `${TWO_DIGITS[Math.floor(year / 100)]}${TWO_DIGITS[year % 100]}-${TWO_DIGITS[month]}-${TWO_DIGITS[day]}T${TWO_DIGITS[key - days * 24]}:`;
    hourKey = key;
  }
  return hourPrefix;
}

/**
 * isoMicros(BigInt(ms) * 1000n + BigInt(sub)) for integer ms and 0 <= sub <= 999, without BigInt.
 * Before 1970 with microseconds below the millisecond, and outside years 0..9999, isoMicros itself
 * answers (the rounding of such instants is its business).
 */
export function isoFromMsAndMicros(ms: number, sub: number): string {
  if ((ms < 0 && sub > 0) || ms < FIRST_4_DIGIT_MS || ms >= FIRST_5_DIGIT_MS) return isoMicros(BigInt(ms) * 1000n + BigInt(sub));
  const hour = Math.floor(ms / MS_PER_HOUR);
  const inHour = ms - hour * MS_PER_HOUR;
  const minute = Math.floor(inHour / 60_000);
  const inMinute = inHour - minute * 60_000;
  const second = Math.floor(inMinute / 1000);
  return `${prefixOfHour(hour)}${TWO_DIGITS[minute]}:${TWO_DIGITS[second]}.${THREE_DIGITS[inMinute - second * 1000]}${THREE_DIGITS[sub]}Z`;
}

// ------------------------------------------------------------------ ISO UTC texts

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
  // Microseconds below the millisecond before 1970: left to the general path (see isoFromMsAndMicros).
  if (year < 1970 && count > 3 && digitsAt(text, 23, Math.min(count, 6) - 3) !== 0) return undefined;
  if (count === 6) return text;
  return count > 6 ? `${text.slice(0, 26)}Z` : `${text.slice(0, 20 + count)}${'000000'.slice(count)}Z`;
}

// ------------------------------------------------------------------ fixed-width strptime

/** Wall-clock fields a fixed format reads (no offset: %z and %Z are not fixed-width). */
export interface FixedWall {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  microsecond: number;
}

const LITERAL = 0;
const SPACE = 1;
const NUMERIC: Partial<Record<string, number>> = { Y: 2, y: 3, m: 4, d: 5, H: 6, M: 7, S: 8, f: 9 };
// Two-digit values each directive's regex (strptime.ts) takes as its first choice.
const RANGES: Record<number, [number, number]> = { 3: [0, 99], 4: [1, 12], 5: [1, 31], 6: [0, 23], 7: [0, 59], 8: [0, 59] };

/**
 * A reader for a strptime format made only of %Y %y %m %d %H %M %S %f (each at most once, `-`/`#`
 * flags allowed), %% and literal characters, neither starting nor ending with whitespace; undefined
 * for any other format. The reader accepts only the fixed-width spelling (%m as two digits, runs of
 * format whitespace as runs of spaces, literals in their exact case); whatever it accepts, it reads
 * as parseStrptime does: its path through the format's regular expression is the one the regex
 * tries first. It declines (false) everything else, impossible dates included.
 */
export function compileFixedFormat(format: string): ((text: string, out: FixedWall) => boolean) | undefined {
  const kinds: number[] = [];
  const codes: number[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < format.length; i += 1) {
    const char = format[i]!;
    if (char === '%') {
      let letter = format[i + 1];
      if (letter === '-' || letter === '#') {
        i += 1;
        letter = format[i + 1];
      }
      i += 1;
      if (letter === '%') {
        kinds.push(LITERAL);
        codes.push(37);
        continue;
      }
      const kind = letter === undefined ? undefined : NUMERIC[letter];
      if (kind === undefined || seen.has(letter!)) return undefined;
      seen.add(letter!);
      kinds.push(kind);
      codes.push(0);
    } else if (/\s/.test(char)) {
      while (i + 1 < format.length && /\s/.test(format[i + 1]!)) i += 1;
      kinds.push(SPACE);
      codes.push(32);
    } else {
      kinds.push(LITERAL);
      codes.push(char.charCodeAt(0));
    }
  }
  if (kinds.length === 0 || kinds[0] === SPACE || kinds[kinds.length - 1] === SPACE) return undefined;

  return (text, out) => {
    let at = 0;
    let fullYear = -1;
    let shortYear = -1;
    let month = 1;
    let day = 1;
    let hour = 0;
    let minute = 0;
    let second = 0;
    let microsecond = 0;
    for (let step = 0; step < kinds.length; step += 1) {
      const kind = kinds[step]!;
      if (kind === LITERAL) {
        if (text.charCodeAt(at) !== codes[step]) return false;
        at += 1;
      } else if (kind === SPACE) {
        if (text.charCodeAt(at) !== 32) return false;
        at += 1;
        while (text.charCodeAt(at) === 32) at += 1;
      } else if (kind === 2) {
        fullYear = digitsAt(text, at, 4);
        if (fullYear < 0) return false;
        at += 4;
      } else if (kind === 9) {
        // \d{1,6}, greedy.
        let count = 0;
        let value = 0;
        while (count < 6) {
          const digit = text.charCodeAt(at + count) - 48;
          if (!(digit >= 0 && digit <= 9)) break;
          value = value * 10 + digit;
          count += 1;
        }
        if (count === 0) return false;
        microsecond = value * 10 ** (6 - count);
        at += count;
      } else {
        const value = digitsAt(text, at, 2);
        const range = RANGES[kind]!;
        if (value < range[0] || value > range[1]) return false;
        at += 2;
        if (kind === 3) shortYear = value;
        else if (kind === 4) month = value;
        else if (kind === 5) day = value;
        else if (kind === 6) hour = value;
        else if (kind === 7) minute = value;
        else second = value;
      }
    }
    if (at !== text.length) return false;
    const year = fullYear >= 0 ? fullYear : shortYear >= 0 ? (shortYear <= 68 ? 2000 + shortYear : 1900 + shortYear) : 1900;
    if (year < 1 || day > daysInMonth(year, month)) return false;
    out.year = year;
    out.month = month;
    out.day = day;
    out.hour = hour;
    out.minute = minute;
    out.second = second;
    out.microsecond = microsecond;
    return true;
  };
}

// ------------------------------------------------------------------ zone offsets

/** A chosen offset as wallTimeToUtcMicros applies it to every wall time of one local minute. */
interface MinuteOffset {
  offsetMs: number;
  dst?: 'gap' | 'overlap';
}

const CACHE_LIMIT = 20_000;

/**
 * Wall time → UTC in one IANA zone, as wallTimeToUtcMicros computes it (its DST policy and its
 * offset per local minute), asking it once per local minute and remembering the answer.
 */
export class ZoneMinutes {
  private readonly minutes = new Map<number, MinuteOffset>();
  private lastMinute = Number.NaN;
  private last: MinuteOffset = { offsetMs: 0 };

  constructor(private readonly timeZone: string) {}

  /** The UTC epoch milliseconds of the wall time (sub-millisecond part aside), and its DST case. */
  offsetFor(wall: FixedWall, naiveMs: number): MinuteOffset {
    const minute = Math.floor(naiveMs / 60_000);
    if (minute === this.lastMinute) return this.last;
    let chosen = this.minutes.get(minute);
    if (chosen === undefined) {
      const { micros, dst } = wallTimeToUtcMicros({ ...wall, second: 0, microsecond: 0 }, this.timeZone);
      chosen = { offsetMs: minute * 60_000 - Number(micros / 1000n) };
      if (dst) chosen.dst = dst;
      if (this.minutes.size >= CACHE_LIMIT) this.minutes.clear();
      this.minutes.set(minute, chosen);
    }
    this.lastMinute = minute;
    this.last = chosen;
    return chosen;
  }
}

/** Milliseconds since the epoch of the wall fields read as UTC (valid fields, years 1..9999). */
export function naiveMs(wall: FixedWall): number {
  return daysFromCivil(wall.year, wall.month, wall.day) * MS_PER_DAY + wall.hour * MS_PER_HOUR + wall.minute * 60_000 + wall.second * 1000;
}
