/**
 * Date guessing for `parse_dates` and for convert_timestamps without a format: the common shapes
 * pandas/dateutil recognise in machine files. Deliberately a closed list — a value that fits none is
 * refused rather than read in a surprising way — and epoch numbers are never guessed (their unit
 * cannot be known).
 */
import { type WallTime, isValidWallTime, parseOffset } from './wall-time.js';

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MONTH = '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?';
const WEEKDAY = '(?:(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\\.?,?\\s+)?';
// Optional time of day, AM/PM and offset after a date.
const TIME = '(?:(?:T|\\s+|,\\s*)(\\d{1,2}):(\\d{2})(?::(\\d{2})(?:[.,](\\d{1,9}))?)?(?:\\s*([ap]\\.?m\\.?))?)?(?:\\s*(Z|UTC|GMT|[+-]\\d\\d(?::?\\d\\d)?))?';

interface Shape {
  regex: RegExp;
  /** Capture-group indexes of the date parts; `first`/`second` are day and month in file order. */
  date: (groups: string[], dayfirst: boolean) => { year: number; month: number; day: number }[];
  timeAt: number;
}

const monthNumber = (text: string) => MONTHS.indexOf(text.slice(0, 3).toLowerCase()) + 1;

const SHAPES: Shape[] = [
  // ISO 8601 and its relatives: 2026-03-29, 2026/03/29, 2026.03.29 (year first is never ambiguous).
  {
    regex: new RegExp(`^(\\d{4})([-/.])(\\d{1,2})\\2(\\d{1,2})${TIME}$`, 'i'),
    date: (g) => [{ year: Number(g[1]), month: Number(g[3]), day: Number(g[4]) }],
    timeAt: 5,
  },
  // Compact ISO: 20260329 or 20260329T0230.
  {
    regex: new RegExp(`^(\\d{4})(\\d{2})(\\d{2})(?:T(\\d{2})(\\d{2})(\\d{2})?)?$`, 'i'),
    date: (g) => [{ year: Number(g[1]), month: Number(g[2]), day: Number(g[3]) }],
    timeAt: -1,
  },
  // 29/03/2026 or 03/29/2026 (also with . or -): dayfirst decides; the other reading is the
  // fallback when the preferred one is impossible, as in dateutil.
  {
    regex: new RegExp(`^(\\d{1,2})([-/.])(\\d{1,2})\\2(\\d{4})${TIME}$`, 'i'),
    date: (g, dayfirst) => {
      const a = Number(g[1]);
      const b = Number(g[3]);
      const year = Number(g[4]);
      const dayFirst = { year, month: b, day: a };
      const monthFirst = { year, month: a, day: b };
      return dayfirst ? [dayFirst, monthFirst] : [monthFirst, dayFirst];
    },
    timeAt: 5,
  },
  // Jan 1 2000, January 1, 2000, Mon Jan 01 2000.
  {
    regex: new RegExp(`^${WEEKDAY}${MONTH}\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})${TIME}$`, 'i'),
    date: (g) => [{ year: Number(g[3]), month: monthNumber(g[1]!), day: Number(g[2]) }],
    timeAt: 4,
  },
  // 1 Jan 2000, 01-Jan-2000.
  {
    regex: new RegExp(`^${WEEKDAY}(\\d{1,2})(?:st|nd|rd|th)?[-\\s]${MONTH}[-\\s,]\\s*(\\d{4})${TIME}$`, 'i'),
    date: (g) => [{ year: Number(g[3]), month: monthNumber(g[2]!), day: Number(g[1]) }],
    timeAt: 4,
  },
];

type TimeOfDay = Pick<WallTime, 'hour' | 'minute' | 'second' | 'microsecond' | 'offsetMinutes'>;

function timeOfDay(g: string[], at: number): TimeOfDay | null {
  let hour = Number(g[at] ?? 0);
  const minute = Number(g[at + 1] ?? 0);
  const second = Number(g[at + 2] ?? 0);
  const microsecond = Number((g[at + 3] ?? '').slice(0, 6).padEnd(6, '0'));
  const half = g[at + 4]?.replace(/\./g, '').toLowerCase();
  if (half) {
    if (hour < 1 || hour > 12) return null;
    if (half === 'am' && hour === 12) hour = 0;
    else if (half === 'pm' && hour !== 12) hour += 12;
  }
  const zone = g[at + 5];
  const time: TimeOfDay = { hour, minute, second, microsecond };
  if (zone !== undefined) {
    const offset = /^(utc|gmt)$/i.test(zone) ? 0 : parseOffset(zone.length === 3 ? `${zone}00` : zone);
    if (offset === null) return null;
    time.offsetMinutes = offset;
  }
  return time;
}

/**
 * Guesses the date and time in `text` (see the module comment for the shapes read). `dayfirst`
 * reads 01/02/2024 as 1 February. Returns null for anything else, including bare numbers.
 */
export function guessDateTime(text: string, options: { dayfirst?: boolean } = {}): WallTime | null {
  const trimmed = text.trim();
  for (const shape of SHAPES) {
    const match = shape.regex.exec(trimmed);
    if (!match) continue;
    const groups = [...match] as string[];
    const time =
      shape.timeAt >= 0
        ? timeOfDay(groups, shape.timeAt)
        : { hour: Number(groups[4] ?? 0), minute: Number(groups[5] ?? 0), second: Number(groups[6] ?? 0), microsecond: 0 };
    if (!time) return null;
    for (const date of shape.date(groups, options.dayfirst ?? false)) {
      const wall: WallTime = { ...date, ...time };
      if (isValidWallTime(wall)) return wall;
    }
    return null;
  }
  return null;
}
