/**
 * A wall-clock time as read from text: calendar fields without a time zone, plus the offset when
 * the text itself carried one (e.g. `+02:00` or `Z`).
 */
export interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  microsecond: number;
  /** Minutes east of UTC, only when the text named its own offset. */
  offsetMinutes?: number;
}

/** Days in a month of the proleptic Gregorian calendar. */
export function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/**
 * Days since 1970-01-01 of a proleptic Gregorian date, by arithmetic (no Date object): month must
 * be 1..12; a day beyond the month's end counts on into the next months, as Date does.
 */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const shiftedMonth = month > 2 ? month - 3 : month + 9;
  const dayOfYear = Math.floor((153 * shiftedMonth + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

/** The proleptic Gregorian date `days` after 1970-01-01 (the inverse of daysFromCivil). */
export function civilFromDays(days: number): { year: number; month: number; day: number } {
  const date = new Date(days * 86_400_000);
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
}

/** Monday = 0 … Sunday = 6, as Python's date.weekday(). */
export function weekdayOf(year: number, month: number, day: number): number {
  // 1970-01-01 was a Thursday (3).
  return (((daysFromCivil(year, month, day) + 3) % 7) + 7) % 7;
}

/** True when every field is in range (seconds 0..59: leap seconds are refused, as by Python's datetime). */
export function isValidWallTime(wall: WallTime): boolean {
  return (
    Number.isInteger(wall.year) &&
    wall.year >= 1 &&
    wall.year <= 9999 &&
    wall.month >= 1 &&
    wall.month <= 12 &&
    wall.day >= 1 &&
    wall.day <= daysInMonth(wall.year, wall.month) &&
    wall.hour >= 0 &&
    wall.hour <= 23 &&
    wall.minute >= 0 &&
    wall.minute <= 59 &&
    wall.second >= 0 &&
    wall.second <= 59 &&
    wall.microsecond >= 0 &&
    wall.microsecond <= 999_999 &&
    (wall.offsetMinutes === undefined || Math.abs(wall.offsetMinutes) < 24 * 60)
  );
}

/** Offset text (+hh:mm, +hhmm, +hh:mm:ss, Z) in minutes east of UTC. */
export function parseOffset(text: string): number | null {
  if (text === 'Z' || text === 'z') return 0;
  const match = /^([+-])(\d\d):?([0-5]\d)(?::?([0-5]\d))?$/.exec(text);
  if (!match) return null;
  const minutes = Number(match[2]) * 60 + Number(match[3]) + Number(match[4] ?? 0) / 60;
  return match[1] === '-' ? -minutes : minutes;
}
