/**
 * Wall time in an IANA zone → UTC instant, with Intl as the only time-zone database (the one that
 * ships with Node, so no tz library to keep current). DST policy (docs/decisions/0004-time-zones.md):
 * a local time inside a spring-forward gap is moved forward by the length of the gap; a local time
 * that happens twice at fall-back is read as its first occurrence (daylight time).
 */
import type { WallTime } from './wall-time.js';

/** The UTC instant of a wall time, and whether it fell into a DST gap or overlap. */
export interface ZonedResult {
  micros: bigint;
  dst?: 'gap' | 'overlap';
}

const HOUR_MS = 3_600_000;
const formatters = new Map<string, Intl.DateTimeFormat>();
// Offsets chosen per zone and local minute: rows of a file share minutes, Intl calls are slow.
const offsetCache = new Map<string, Map<number, { offsetMs: number; dst?: 'gap' | 'overlap' }>>();
const CACHE_LIMIT = 20_000;

function formatter(timeZone: string): Intl.DateTimeFormat {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      era: 'short',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, format);
  }
  return format;
}

/** Milliseconds since the epoch of the wall fields read as if they were UTC. */
function naiveMs(year: number, month: number, day: number, hour: number, minute: number, second: number): number {
  const date = new Date(0);
  // setUTCFullYear, unlike Date.UTC, does not map years 0..99 to 1900..1999.
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, 0);
  return date.getTime();
}

/** Offset of `timeZone` from UTC at the instant `utcMs`, in milliseconds (east positive). */
export function zoneOffsetMs(utcMs: number, timeZone: string): number {
  const parts: Record<string, string> = {};
  for (const part of formatter(timeZone).formatToParts(new Date(utcMs))) parts[part.type] = part.value;
  const year = parts.era === 'BC' || parts.era === 'B' ? 1 - Number(parts.year) : Number(parts.year);
  const local = naiveMs(year, Number(parts.month), Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second));
  // Intl works in whole seconds; drop the instant's milliseconds before comparing.
  return local - (utcMs - (((utcMs % 1000) + 1000) % 1000));
}

function chooseOffset(naive: number, timeZone: string): { offsetMs: number; dst?: 'gap' | 'overlap' } {
  // Offsets a day before and after bracket any transition near this local time.
  const before = zoneOffsetMs(naive - 24 * HOUR_MS, timeZone);
  const after = zoneOffsetMs(naive + 24 * HOUR_MS, timeZone);
  const fits = (offset: number) => zoneOffsetMs(naive - offset, timeZone) === offset;
  if (before === after) {
    if (fits(before)) return { offsetMs: before };
    const actual = zoneOffsetMs(naive - before, timeZone);
    return { offsetMs: fits(actual) ? actual : before };
  }
  const beforeFits = fits(before);
  const afterFits = fits(after);
  if (beforeFits && afterFits) {
    // Overlap: the first occurrence is the earlier instant, i.e. the larger offset.
    return { offsetMs: Math.max(before, after), dst: 'overlap' };
  }
  if (beforeFits) return { offsetMs: before };
  if (afterFits) return { offsetMs: after };
  // Gap: read with the offset in force before it, which lands the gap's length later.
  return { offsetMs: before, dst: 'gap' };
}

function isUtc(timeZone: string): boolean {
  return timeZone === 'UTC' || timeZone === 'Etc/UTC' || timeZone === 'GMT' || timeZone === 'Etc/GMT';
}

/**
 * The UTC instant of `wall`. An offset carried by the wall time wins; otherwise the wall time is
 * read in the IANA `timeZone`. Throws RangeError for an unknown zone (validated in config first).
 */
export function wallTimeToUtcMicros(wall: WallTime, timeZone: string): ZonedResult {
  const naive = naiveMs(wall.year, wall.month, wall.day, wall.hour, wall.minute, wall.second);
  const sub = BigInt(wall.microsecond);
  if (wall.offsetMinutes !== undefined) {
    return { micros: BigInt(naive - Math.round(wall.offsetMinutes * 60) * 1000) * 1000n + sub };
  }
  if (isUtc(timeZone)) return { micros: BigInt(naive) * 1000n + sub };

  let cache = offsetCache.get(timeZone);
  if (!cache) {
    cache = new Map();
    offsetCache.set(timeZone, cache);
  }
  const minuteKey = Math.floor(naive / 60_000);
  let chosen = cache.get(minuteKey);
  if (!chosen) {
    // Transitions happen on whole minutes, so the offset is constant across a local minute.
    chosen = chooseOffset(minuteKey * 60_000, timeZone);
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(minuteKey, chosen);
  }
  const result: ZonedResult = { micros: BigInt(naive - chosen.offsetMs) * 1000n + sub };
  if (chosen.dst) result.dst = chosen.dst;
  return result;
}
