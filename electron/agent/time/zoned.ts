/**
 * Wall time in an IANA zone → UTC instant, with Intl as the only time-zone database (the one that
 * ships with Node, so no tz library to keep current). DST policy (docs/decisions/0004-time-zones.md):
 * a local time inside a spring-forward gap is moved forward by the length of the gap; a local time
 * that happens twice at fall-back is read as its first occurrence (daylight time).
 *
 * Intl is slow (a formatToParts call costs several microseconds), so offsets are cached per zone:
 * a local day far from any transition gets one offset for all of its minutes, checked by sampling
 * the zone's offset every 6 hours from a day before to two days after it (the window every sample
 * of the exact per-minute rule falls in); a day near a transition falls back to that exact rule,
 * cached per local minute. The two agree as long as a zone never changes its offset twice within
 * 6 hours (tzdata has no such pair; the per-minute rule itself already assumes none within a day).
 */
import { type WallTime, daysFromCivil } from './wall-time.js';

/** The UTC instant of a wall time, and whether it fell into a DST gap or overlap. */
export interface ZonedResult {
  micros: bigint;
  dst?: 'gap' | 'overlap';
}

/** The offset chosen for a local wall time: UTC = the wall time read as if UTC, minus offsetMs. */
export interface LocalOffset {
  readonly offsetMs: number;
  readonly dst?: 'gap' | 'overlap';
}

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
/** Spacing of the offset samples that show a local day is far from any transition. */
const SAMPLE_STEP_MS = 6 * HOUR_MS;
const CACHE_LIMIT = 20_000;
const UTC_OFFSET: LocalOffset = Object.freeze({ offsetMs: 0 });

const formatters = new Map<string, Intl.DateTimeFormat>();

interface ZoneCache {
  /** zoneOffsetMs at sample instants (multiples of SAMPLE_STEP_MS). */
  samples: Map<number, number>;
  /** Per local day (days since 1970 of the wall time read as UTC): its offset when the same all day, else null. */
  days: Map<number, LocalOffset | null>;
  /** Per local minute, on days near a transition: the exact per-minute choice. */
  minutes: Map<number, LocalOffset>;
  /** The last day looked up, when it had one offset all day (rows of a file share days). */
  lastDay: number;
  lastDayOffset: LocalOffset | null;
}

const zoneCaches = new Map<string, ZoneCache>();

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

/** Milliseconds since the epoch of the wall fields read as if they were UTC, through Date (any input). */
function naiveMsByDate(year: number, month: number, day: number, hour: number, minute: number, second: number): number {
  const date = new Date(0);
  // setUTCFullYear, unlike Date.UTC, does not map years 0..99 to 1900..1999.
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, 0);
  return date.getTime();
}

const inRange = (value: number, limit: number) => Number.isInteger(value) && value >= -limit && value <= limit;

/** Milliseconds since the epoch of the wall fields read as if they were UTC. */
function naiveMs(year: number, month: number, day: number, hour: number, minute: number, second: number): number {
  // Arithmetic gives what Date gives for integer fields in these ranges (far inside Date's range);
  // anything else (fractions, a month out of range) goes through Date itself.
  if (month >= 1 && month <= 12 && Number.isInteger(month) && inRange(year, 200_000) && inRange(day, 1_000_000) && inRange(hour, 1_000_000) && inRange(minute, 1_000_000) && inRange(second, 1_000_000)) {
    return daysFromCivil(year, month, day) * DAY_MS + hour * HOUR_MS + minute * MINUTE_MS + second * 1000;
  }
  return naiveMsByDate(year, month, day, hour, minute, second);
}

/** The wall time's fields (without microseconds) read as if they were UTC, in ms since the epoch. */
export function wallNaiveMs(wall: WallTime): number {
  return naiveMs(wall.year, wall.month, wall.day, wall.hour, wall.minute, wall.second);
}

/** Offset of `timeZone` from UTC at the instant `utcMs`, in milliseconds (east positive). */
export function zoneOffsetMs(utcMs: number, timeZone: string): number {
  const parts: Record<string, string> = {};
  for (const part of formatter(timeZone).formatToParts(new Date(utcMs))) parts[part.type] = part.value;
  const year = parts.era === 'BC' || parts.era === 'B' ? 1 - Number(parts.year) : Number(parts.year);
  const local = naiveMsByDate(year, Number(parts.month), Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second));
  // Intl works in whole seconds; drop the instant's milliseconds before comparing.
  return local - (utcMs - (((utcMs % 1000) + 1000) % 1000));
}

/** The exact rule for one local time (naive ms): what every cached answer must equal. */
function chooseOffset(naive: number, timeZone: string): LocalOffset {
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

function zoneCache(timeZone: string): ZoneCache {
  let cache = zoneCaches.get(timeZone);
  if (!cache) {
    cache = { samples: new Map(), days: new Map(), minutes: new Map(), lastDay: Number.NaN, lastDayOffset: null };
    zoneCaches.set(timeZone, cache);
  }
  return cache;
}

function sampleOffset(at: number, timeZone: string, cache: ZoneCache): number {
  let offset = cache.samples.get(at);
  if (offset === undefined) {
    offset = zoneOffsetMs(at, timeZone);
    if (cache.samples.size >= CACHE_LIMIT) cache.samples.clear();
    cache.samples.set(at, offset);
  }
  return offset;
}

/**
 * The offset of a local day whose minutes all get the same answer from chooseOffset, or null. For
 * a local time t of the day and an offset O constant over [day - 24 h, day + 48 h], chooseOffset
 * samples t ± 24 h and t - O (|O| < 24 h), all inside that window, and answers { offsetMs: O }.
 */
function uniformDayOffset(day: number, timeZone: string, cache: ZoneCache): LocalOffset | null {
  const start = day * DAY_MS;
  const offset = sampleOffset(start - DAY_MS, timeZone, cache);
  if (!(Math.abs(offset) < DAY_MS)) return null;
  for (let at = start - DAY_MS + SAMPLE_STEP_MS; at <= start + 2 * DAY_MS; at += SAMPLE_STEP_MS) {
    if (sampleOffset(at, timeZone, cache) !== offset) return null;
  }
  return { offsetMs: offset };
}

/** The offset for a local time (naive ms) in a zone, from the caches. */
function cachedOffset(naive: number, timeZone: string, cache: ZoneCache): LocalOffset {
  const day = Math.floor(naive / DAY_MS);
  if (day === cache.lastDay && cache.lastDayOffset !== null) return cache.lastDayOffset;
  let uniform = cache.days.get(day);
  if (uniform === undefined) {
    uniform = uniformDayOffset(day, timeZone, cache);
    if (cache.days.size >= CACHE_LIMIT) cache.days.clear();
    cache.days.set(day, uniform);
  }
  cache.lastDay = day;
  cache.lastDayOffset = uniform;
  if (uniform !== null) return uniform;
  const minuteKey = Math.floor(naive / MINUTE_MS);
  let chosen = cache.minutes.get(minuteKey);
  if (!chosen) {
    // Transitions happen on whole minutes, so the offset is constant across a local minute.
    chosen = chooseOffset(minuteKey * MINUTE_MS, timeZone);
    if (cache.minutes.size >= CACHE_LIMIT) cache.minutes.clear();
    cache.minutes.set(minuteKey, chosen);
  }
  return chosen;
}

/**
 * A reader of the offset to apply to wall times in `timeZone` (bound once, for a parser's hot
 * loop): `naive` is wallNaiveMs(wall). An offset carried by the wall time wins. Throws RangeError
 * for an unknown zone.
 */
export function offsetResolver(timeZone: string): (wall: WallTime, naive: number) => LocalOffset {
  const utc = isUtc(timeZone);
  const cache = utc ? null : zoneCache(timeZone);
  return (wall, naive) => {
    if (wall.offsetMinutes !== undefined) return { offsetMs: Math.round(wall.offsetMinutes * 60) * 1000 };
    if (cache === null) return UTC_OFFSET;
    return cachedOffset(naive, timeZone, cache);
  };
}

const resolvers = new Map<string, (wall: WallTime, naive: number) => LocalOffset>();

/**
 * The UTC instant of `wall`. An offset carried by the wall time wins; otherwise the wall time is
 * read in the IANA `timeZone`. Throws RangeError for an unknown zone (validated in config first).
 */
export function wallTimeToUtcMicros(wall: WallTime, timeZone: string): ZonedResult {
  const naive = wallNaiveMs(wall);
  const sub = BigInt(wall.microsecond);
  let resolve = resolvers.get(timeZone);
  if (!resolve) {
    resolve = offsetResolver(timeZone);
    if (resolvers.size >= 256) resolvers.clear();
    resolvers.set(timeZone, resolve);
  }
  const chosen = resolve(wall, naive);
  const result: ZonedResult = { micros: BigInt(naive - chosen.offsetMs) * 1000n + sub };
  if (chosen.dst) result.dst = chosen.dst;
  return result;
}
