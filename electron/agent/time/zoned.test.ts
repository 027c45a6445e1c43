import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isoMicros } from '../../../shared/records/record.js';
import { type WallTime, daysFromCivil, daysInMonth } from './wall-time.js';
import { type ZonedResult, offsetResolver, wallNaiveMs, wallTimeToUtcMicros, zoneOffsetMs } from './zoned.js';

const wall = (year: number, month: number, day: number, hour = 0, minute = 0, second = 0, microsecond = 0) => ({ year, month, day, hour, minute, second, microsecond });
const utc = (w: ReturnType<typeof wall> & { offsetMinutes?: number }, zone: string) => {
  const result = wallTimeToUtcMicros(w, zone);
  return { iso: isoMicros(result.micros), dst: result.dst };
};

describe('wallTimeToUtcMicros', () => {
  it('reads UTC wall times as they are, microseconds included', () => {
    expect(utc(wall(2026, 1, 5, 6, 0, 0, 123_456), 'UTC')).toEqual({ iso: '2026-01-05T06:00:00.123456Z', dst: undefined });
    expect(utc(wall(2026, 1, 5, 6), 'Etc/UTC').iso).toBe('2026-01-05T06:00:00.000000Z');
  });

  it('uses the offset carried by the text instead of the zone', () => {
    expect(utc({ ...wall(2026, 1, 5, 6), offsetMinutes: 120 }, 'America/Chicago').iso).toBe('2026-01-05T04:00:00.000000Z');
    expect(utc({ ...wall(2026, 1, 5, 6), offsetMinutes: -330 }, 'UTC').iso).toBe('2026-01-05T11:30:00.000000Z');
  });

  it('reads ordinary times in winter and summer in Europe/Berlin', () => {
    expect(utc(wall(2026, 1, 5, 6), 'Europe/Berlin')).toEqual({ iso: '2026-01-05T05:00:00.000000Z', dst: undefined });
    expect(utc(wall(2026, 7, 5, 6), 'Europe/Berlin')).toEqual({ iso: '2026-07-05T04:00:00.000000Z', dst: undefined });
  });

  it('reads a zone without DST (Asia/Kolkata, Asia/Tokyo) at fixed offsets all year', () => {
    expect(utc(wall(2026, 3, 29, 2, 30), 'Asia/Kolkata')).toEqual({ iso: '2026-03-28T21:00:00.000000Z', dst: undefined });
    expect(utc(wall(2026, 10, 25, 2, 30), 'Asia/Tokyo')).toEqual({ iso: '2026-10-24T17:30:00.000000Z', dst: undefined });
  });

  describe('Europe/Berlin DST edges', () => {
    it('shifts 02:30 on 2026-03-29 (spring-forward gap) forward by the gap: 03:30 CEST', () => {
      expect(utc(wall(2026, 3, 29, 2, 30), 'Europe/Berlin')).toEqual({ iso: '2026-03-29T01:30:00.000000Z', dst: 'gap' });
      expect(utc(wall(2026, 3, 29, 2, 0), 'Europe/Berlin')).toEqual({ iso: '2026-03-29T01:00:00.000000Z', dst: 'gap' });
    });

    it('reads the minutes around the gap normally', () => {
      expect(utc(wall(2026, 3, 29, 1, 59, 59, 999_999), 'Europe/Berlin')).toEqual({ iso: '2026-03-29T00:59:59.999999Z', dst: undefined });
      expect(utc(wall(2026, 3, 29, 3, 0), 'Europe/Berlin')).toEqual({ iso: '2026-03-29T01:00:00.000000Z', dst: undefined });
    });

    it('reads 02:30 on 2026-10-25 (fall-back overlap) as its first occurrence, CEST', () => {
      expect(utc(wall(2026, 10, 25, 2, 30), 'Europe/Berlin')).toEqual({ iso: '2026-10-25T00:30:00.000000Z', dst: 'overlap' });
      expect(utc(wall(2026, 10, 25, 2, 0), 'Europe/Berlin')).toEqual({ iso: '2026-10-25T00:00:00.000000Z', dst: 'overlap' });
      expect(utc(wall(2026, 10, 25, 3, 0), 'Europe/Berlin')).toEqual({ iso: '2026-10-25T02:00:00.000000Z', dst: undefined });
      expect(utc(wall(2026, 10, 25, 1, 59), 'Europe/Berlin')).toEqual({ iso: '2026-10-24T23:59:00.000000Z', dst: undefined });
    });
  });

  describe('America/Chicago DST edges', () => {
    it('shifts 02:30 on 2026-03-08 (gap) forward to 03:30 CDT', () => {
      expect(utc(wall(2026, 3, 8, 2, 30), 'America/Chicago')).toEqual({ iso: '2026-03-08T08:30:00.000000Z', dst: 'gap' });
      expect(utc(wall(2026, 3, 8, 3, 30), 'America/Chicago')).toEqual({ iso: '2026-03-08T08:30:00.000000Z', dst: undefined });
      expect(utc(wall(2026, 3, 8, 1, 30), 'America/Chicago')).toEqual({ iso: '2026-03-08T07:30:00.000000Z', dst: undefined });
    });

    it('reads 01:30 on 2026-11-01 (overlap) as the first occurrence, CDT', () => {
      expect(utc(wall(2026, 11, 1, 1, 30), 'America/Chicago')).toEqual({ iso: '2026-11-01T06:30:00.000000Z', dst: 'overlap' });
      expect(utc(wall(2026, 11, 1, 2, 30), 'America/Chicago')).toEqual({ iso: '2026-11-01T08:30:00.000000Z', dst: undefined });
      expect(utc(wall(2026, 11, 1, 0, 30), 'America/Chicago')).toEqual({ iso: '2026-11-01T05:30:00.000000Z', dst: undefined });
    });
  });

  it('handles a 30-minute DST shift (Australia/Lord_Howe)', () => {
    // 2026-10-04 02:00 → 02:30 local (+10:30 → +11:00): 02:15 is read at +10:30, i.e. 02:45 LHDT.
    expect(utc(wall(2026, 10, 4, 2, 15), 'Australia/Lord_Howe')).toEqual({ iso: '2026-10-03T15:45:00.000000Z', dst: 'gap' });
  });

  it('gives the same answer from the cache as on the first call', () => {
    const first = utc(wall(2026, 10, 25, 2, 30, 1), 'Europe/Berlin');
    const second = utc(wall(2026, 10, 25, 2, 30, 59), 'Europe/Berlin');
    expect(first).toEqual({ iso: '2026-10-25T00:30:01.000000Z', dst: 'overlap' });
    expect(second).toEqual({ iso: '2026-10-25T00:30:59.000000Z', dst: 'overlap' });
  });

  it('reads years before 100 without the Date.UTC 1900 shift', () => {
    expect(utc(wall(50, 6, 1), 'UTC').iso).toBe('0050-06-01T00:00:00.000000Z');
  });

  it('rejects an unknown zone', () => {
    expect(() => wallTimeToUtcMicros(wall(2026, 1, 1), 'Mars/Olympus')).toThrow(RangeError);
  });
});

describe('zoneOffsetMs', () => {
  it('tells the offset at an instant', () => {
    expect(zoneOffsetMs(Date.UTC(2026, 0, 1), 'Europe/Berlin')).toBe(3_600_000);
    expect(zoneOffsetMs(Date.UTC(2026, 6, 1), 'America/Chicago')).toBe(-5 * 3_600_000);
  });
});

/**
 * The straightforward implementation, as it was before the caches by day: the exact rule, evaluated
 * with Intl for every local minute (no cache). The cached one must give the same answers.
 */
const referenceFormats = new Map<string, Intl.DateTimeFormat>();
function referenceUtcMicros(wall: WallTime, timeZone: string): ZonedResult {
  let format = referenceFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', era: 'short', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' });
    referenceFormats.set(timeZone, format);
  }
  const naiveMs = (year: number, month: number, day: number, hour: number, minute: number, second: number) => {
    const date = new Date(0);
    date.setUTCFullYear(year, month - 1, day);
    date.setUTCHours(hour, minute, second, 0);
    return date.getTime();
  };
  const offsetAt = (utcMs: number) => {
    const parts: Record<string, string> = {};
    for (const part of format!.formatToParts(new Date(utcMs))) parts[part.type] = part.value;
    const year = parts.era === 'BC' || parts.era === 'B' ? 1 - Number(parts.year) : Number(parts.year);
    return naiveMs(year, Number(parts.month), Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second)) - (utcMs - (((utcMs % 1000) + 1000) % 1000));
  };
  const choose = (naive: number): { offsetMs: number; dst?: 'gap' | 'overlap' } => {
    const before = offsetAt(naive - 24 * 3_600_000);
    const after = offsetAt(naive + 24 * 3_600_000);
    const fits = (offset: number) => offsetAt(naive - offset) === offset;
    if (before === after) {
      if (fits(before)) return { offsetMs: before };
      const actual = offsetAt(naive - before);
      return { offsetMs: fits(actual) ? actual : before };
    }
    const beforeFits = fits(before);
    const afterFits = fits(after);
    if (beforeFits && afterFits) return { offsetMs: Math.max(before, after), dst: 'overlap' };
    if (beforeFits) return { offsetMs: before };
    if (afterFits) return { offsetMs: after };
    return { offsetMs: before, dst: 'gap' };
  };
  const naive = naiveMs(wall.year, wall.month, wall.day, wall.hour, wall.minute, wall.second);
  const sub = BigInt(wall.microsecond);
  if (wall.offsetMinutes !== undefined) return { micros: BigInt(naive - Math.round(wall.offsetMinutes * 60) * 1000) * 1000n + sub };
  if (['UTC', 'Etc/UTC', 'GMT', 'Etc/GMT'].includes(timeZone)) return { micros: BigInt(naive) * 1000n + sub };
  const chosen = choose(Math.floor(naive / 60_000) * 60_000);
  const result: ZonedResult = { micros: BigInt(naive - chosen.offsetMs) * 1000n + sub };
  if (chosen.dst) result.dst = chosen.dst;
  return result;
}

describe('wallTimeToUtcMicros against the uncached reference', () => {
  const ZONES = ['Europe/Berlin', 'America/Chicago', 'Australia/Lord_Howe', 'UTC', 'America/Sao_Paulo', 'Asia/Kolkata', 'Asia/Beirut', 'America/Santiago'];

  const wallIn = (years: fc.Arbitrary<number>, months: fc.Arbitrary<number>, hours: fc.Arbitrary<number>, minutes: fc.Arbitrary<number>): fc.Arbitrary<WallTime> =>
    fc
      .record({ year: years, month: months, day: fc.integer({ min: 1, max: 31 }), hour: hours, minute: minutes, second: fc.integer({ min: 0, max: 59 }), microsecond: fc.integer({ min: 0, max: 999_999 }) })
      .map((w) => ({ ...w, day: Math.min(w.day, daysInMonth(w.year, w.month)) }));
  const anyWall = wallIn(
    fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 2000, max: 2040 }) }, { weight: 2, arbitrary: fc.integer({ min: 1800, max: 2200 }) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 9999 }) }),
    fc.integer({ min: 1, max: 12 }),
    fc.integer({ min: 0, max: 23 }),
    fc.integer({ min: 0, max: 59 }),
  );
  // Near the DST transitions of these zones: spring and autumn months, small hours, half hours.
  const nearTransition = wallIn(fc.integer({ min: 2000, max: 2035 }), fc.constantFrom(3, 4, 9, 10, 11), fc.integer({ min: 0, max: 4 }), fc.constantFrom(0, 1, 15, 29, 30, 31, 45, 59));

  it('gives the same instant and DST flag for random wall times', () => {
    fc.assert(
      fc.property(fc.constantFrom(...ZONES), fc.oneof(anyWall, nearTransition), (zone, wall) => {
        expect(wallTimeToUtcMicros(wall, zone)).toEqual(referenceUtcMicros(wall, zone));
      }),
      { numRuns: 3000 },
    );
  });

  it('gives the same answers for runs of rows through the transition days of a year', () => {
    // Like a file: consecutive local times, every 20 minutes through the days around each change.
    for (const zone of ['Europe/Berlin', 'America/Chicago', 'Australia/Lord_Howe']) {
      for (const [month, fromDay] of [[3, 5], [3, 25], [4, 1], [10, 1], [10, 22], [11, 1]] as const) {
        for (let step = 0; step < 8 * 72; step += 1) {
          const minutes = step * 20 + (step % 7);
          const day = fromDay + Math.floor(minutes / 1440);
          if (day > daysInMonth(2026, month)) break;
          const wall = { year: 2026, month, day, hour: Math.floor(minutes / 60) % 24, minute: minutes % 60, second: 30, microsecond: 0 };
          expect(wallTimeToUtcMicros(wall, zone), `${zone} ${JSON.stringify(wall)}`).toEqual(referenceUtcMicros(wall, zone));
        }
      }
    }
  });

  it('uses an offset carried by the wall time whatever the zone', () => {
    fc.assert(
      fc.property(fc.constantFrom(...ZONES), anyWall, fc.integer({ min: -24 * 60 + 1, max: 24 * 60 - 1 }), (zone, wall, offsetMinutes) => {
        expect(wallTimeToUtcMicros({ ...wall, offsetMinutes }, zone)).toEqual(referenceUtcMicros({ ...wall, offsetMinutes }, zone));
      }),
    );
  });

  it('resolves offsets for the parser hot path like wallTimeToUtcMicros', () => {
    const resolvers = new Map(ZONES.map((zone) => [zone, offsetResolver(zone)]));
    fc.assert(
      fc.property(fc.constantFrom(...ZONES), fc.oneof(anyWall, nearTransition), (zone, wall) => {
        const naive = wallNaiveMs(wall);
        const offset = resolvers.get(zone)!(wall, naive);
        const expected = referenceUtcMicros(wall, zone);
        expect(BigInt(naive - offset.offsetMs) * 1000n + BigInt(wall.microsecond)).toBe(expected.micros);
        expect(offset.dst).toBe(expected.dst);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('daysFromCivil', () => {
  it('counts days like Date for every month of years 1..9999, days past the month end included', () => {
    fc.assert(
      fc.property(fc.integer({ min: -400, max: 9999 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: -40, max: 70 }), (year, month, day) => {
        const date = new Date(0);
        date.setUTCFullYear(year, month - 1, day);
        expect(daysFromCivil(year, month, day)).toBe(date.getTime() / 86_400_000);
      }),
      { numRuns: 5000 },
    );
  });
});
