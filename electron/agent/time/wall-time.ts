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
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
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
