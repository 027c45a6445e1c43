import { describe, expect, it } from 'vitest';
import { isoMicros } from '../../../shared/records/record.js';
import { wallTimeToUtcMicros, zoneOffsetMs } from './zoned.js';

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
