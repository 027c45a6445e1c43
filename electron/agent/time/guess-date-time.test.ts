import { describe, expect, it } from 'vitest';
import { guessDateTime } from './guess-date-time.js';

const wall = (year: number, month: number, day: number, hour = 0, minute = 0, second = 0, microsecond = 0) => ({ year, month, day, hour, minute, second, microsecond });

describe('guessDateTime', () => {
  it.each([
    ['2026-03-29', wall(2026, 3, 29)],
    ['2026-03-29T02:30', wall(2026, 3, 29, 2, 30)],
    ['2026-03-29 02:30:15', wall(2026, 3, 29, 2, 30, 15)],
    ['2026-03-29T02:30:15.25', wall(2026, 3, 29, 2, 30, 15, 250_000)],
    ['2026-03-29T02:30:15.123456789', wall(2026, 3, 29, 2, 30, 15, 123_456)],
    ['2026/03/29 2:30 PM', wall(2026, 3, 29, 14, 30)],
    ['2026.3.9', wall(2026, 3, 9)],
    ['20260329', wall(2026, 3, 29)],
    ['20260329T023015', wall(2026, 3, 29, 2, 30, 15)],
    ['03/29/2026', wall(2026, 3, 29)],
    ['Jan 1 2000', wall(2000, 1, 1)],
    ['January 1, 2000 10:15:00', wall(2000, 1, 1, 10, 15)],
    ['Sat Jan 01 2000 10:15 am', wall(2000, 1, 1, 10, 15)],
    ['1 Jan 2000', wall(2000, 1, 1)],
    ['01-Jan-2000 12:00 AM', wall(2000, 1, 1, 0, 0)],
    ['  2026-03-29  ', wall(2026, 3, 29)],
  ])('reads %s', (text, expected) => {
    expect(guessDateTime(text)).toEqual(expected);
  });

  it.each([
    ['2026-03-29T02:30:00Z', 0],
    ['2026-03-29T02:30:00+02:00', 120],
    ['2026-03-29 02:30:00 -0500', -300],
    ['2026-03-29 02:30:00+01', 60],
    ['2026-03-29 02:30 UTC', 0],
  ])('keeps the offset of %s', (text, offset) => {
    expect(guessDateTime(text)?.offsetMinutes).toBe(offset);
  });

  it('reads day and month in the order dayfirst says', () => {
    expect(guessDateTime('01/02/2024')).toEqual(wall(2024, 1, 2));
    expect(guessDateTime('01/02/2024', { dayfirst: true })).toEqual(wall(2024, 2, 1));
    expect(guessDateTime('01.02.2024 13:00', { dayfirst: true })).toEqual(wall(2024, 2, 1, 13));
    expect(guessDateTime('01-02-2024', { dayfirst: true })).toEqual(wall(2024, 2, 1));
  });

  it('falls back to the other order when the preferred one is impossible, like dateutil', () => {
    expect(guessDateTime('13/01/2024')).toEqual(wall(2024, 1, 13));
    expect(guessDateTime('01/13/2024', { dayfirst: true })).toEqual(wall(2024, 1, 13));
  });

  it.each(['1700000000', '1700000000.5', '', 'yesterday', '2026-02-30', '32/13/2024', '2026-03-29 25:00', '13:00 PM 2026-01-01', '2026-03-29T02:30:00+25:00', '2026-3'])(
    'refuses %s',
    (text) => {
      expect(guessDateTime(text)).toBeNull();
    },
  );
});
