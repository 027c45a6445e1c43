import { describe, expect, it } from 'vitest';
import { parseStrptime } from './strptime.js';

const wall = (year: number, month: number, day: number, hour = 0, minute = 0, second = 0, microsecond = 0) => ({ year, month, day, hour, minute, second, microsecond });

describe('parseStrptime', () => {
  it.each([
    ['2026-03-29 02:30:15', '%Y-%m-%d %H:%M:%S', wall(2026, 3, 29, 2, 30, 15)],
    ['Jan 1 2000', '%b %d %Y', wall(2000, 1, 1)],
    ['jan 01 2000', '%b %d %Y', wall(2000, 1, 1)],
    ['JANUARY 5 1999', '%B %d %Y', wall(1999, 1, 5)],
    ['Mon, 05 Jan 2026 06:00:00', '%a, %d %b %Y %H:%M:%S', wall(2026, 1, 5, 6)],
    ['Monday 5 January 2026', '%A %d %B %Y', wall(2026, 1, 5)],
    ['1/2/26', '%m/%d/%y', wall(2026, 1, 2)],
    ['12/31/69', '%m/%d/%y', wall(1969, 12, 31)],
    ['01/01/68', '%m/%d/%y', wall(2068, 1, 1)],
    ['2026-01-05 06:00:00.5', '%Y-%m-%d %H:%M:%S.%f', wall(2026, 1, 5, 6, 0, 0, 500_000)],
    ['2026-01-05 06:00:00.000123', '%Y-%m-%d %H:%M:%S.%f', wall(2026, 1, 5, 6, 0, 0, 123)],
    ['12:15:00 AM 2026-01-05', '%I:%M:%S %p %Y-%m-%d', wall(2026, 1, 5, 0, 15)],
    ['12:15:00 pm 2026-01-05', '%I:%M:%S %p %Y-%m-%d', wall(2026, 1, 5, 12, 15)],
    ['01:15:00 PM 2026-01-05', '%I:%M:%S %p %Y-%m-%d', wall(2026, 1, 5, 13, 15)],
    ['2026 060', '%Y %j', wall(2026, 3, 1)],
    ['2024 366', '%Y %j', wall(2024, 12, 31)],
    ['100% 2026', '100%% %Y', wall(2026, 1, 1)],
    ['5.1.2026', '%-d.%-m.%Y', wall(2026, 1, 5)],
    ['Jan   1    2000', '%b %d %Y', wall(2000, 1, 1)],
    ['Jan\t1 2000', '%b %d %Y', wall(2000, 1, 1)],
    ['14:05', '%H:%M', wall(1900, 1, 1, 14, 5)],
    ['date=2026-01-05', 'DATE=%Y-%m-%d', wall(2026, 1, 5)],
    ['2026-W01-1', '%G-W%V-%u', wall(2025, 12, 29)],
    ['2026 01 1', '%Y %W %w', wall(2026, 1, 5)],
    ['Mon Jan  5 06:00:00 2026', '%c', wall(2026, 1, 5, 6)],
    ['01/05/26 06:00:00', '%x %X', wall(2026, 1, 5, 6)],
    ['%c 2026', '%%c %Y', wall(2026, 1, 1)],
  ])('%s with %s', (text, format, expected) => {
    expect(parseStrptime(text, format)).toEqual(expected);
  });

  it.each([
    ['2026-01-05T06:00:00+0200', 120],
    ['2026-01-05T06:00:00+02:00', 120],
    ['2026-01-05T06:00:00-05:30', -330],
    ['2026-01-05T06:00:00Z', 0],
  ])('%%z reads the offset of %s', (text, offset) => {
    expect(parseStrptime(text, '%Y-%m-%dT%H:%M:%S%z')).toEqual({ ...wall(2026, 1, 5, 6), offsetMinutes: offset });
  });

  it('%Z accepts UTC and GMT only, as offset 0', () => {
    expect(parseStrptime('2026-01-05 06:00 UTC', '%Y-%m-%d %H:%M %Z')?.offsetMinutes).toBe(0);
    expect(parseStrptime('2026-01-05 06:00 gmt', '%Y-%m-%d %H:%M %Z')?.offsetMinutes).toBe(0);
    expect(parseStrptime('2026-01-05 06:00 CET', '%Y-%m-%d %H:%M %Z')).toBeNull();
  });

  it.each([
    ['2026-02-30', '%Y-%m-%d'], // no such day
    ['2025-02-29', '%Y-%m-%d'], // not a leap year
    ['2026-13-01', '%Y-%m-%d'],
    ['2026-01-05 24:00', '%Y-%m-%d %H:%M'],
    ['2026-01-05 23:60', '%Y-%m-%d %H:%M'],
    ['2026-01-05 23:59:60', '%Y-%m-%d %H:%M:%S'], // leap second: refused like datetime
    ['2026-01-05 extra', '%Y-%m-%d'], // unconverted data remains
    ['26-01-05', '%Y-%m-%d'], // %Y needs four digits
    ['2026-01-05 06:00:00.1234567', '%Y-%m-%d %H:%M:%S.%f'],
    ['Jnu 1 2000', '%b %d %Y'],
    ['2026-01-05', '%Y-%m-%d %Q'], // unknown directive
    ['2026-01-05', '%Y-%m-%d %'], // dangling %
    ['2026 367', '%Y %j'],
    ['20260105', '%Y-%m-%d'],
    ['', '%Y'],
    ['2026 2027', '%Y %Y'], // a repeated directive, refused like CPython
  ])('refuses %s with %s', (text, format) => {
    expect(parseStrptime(text, format)).toBeNull();
  });

  it('needs whitespace where the format has whitespace, like Python', () => {
    expect(parseStrptime('Jan12000', '%b %d %Y')).toBeNull();
  });

  it('treats regex characters in literal text literally', () => {
    expect(parseStrptime('(2026).[01]', '(%Y).[%m]')).toEqual(wall(2026, 1, 1));
    expect(parseStrptime('2026x01', '%Y.%m')).toBeNull();
  });

  it('reads %I without %p as AM', () => {
    expect(parseStrptime('12:30', '%I:%M')?.hour).toBe(0);
    expect(parseStrptime('11:30', '%I:%M')?.hour).toBe(11);
  });

  it('backtracks across alternatives like Python (%d%m reads 111 only one way)', () => {
    // Python: strptime('1112026', '%d%m%Y') → 11 Jan 2026 (first alternative that completes the match).
    expect(parseStrptime('1112026', '%d%m%Y')).toEqual(wall(2026, 1, 11));
  });
});
