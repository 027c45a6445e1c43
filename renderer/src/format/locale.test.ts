import { afterEach, describe, expect, it } from 'vitest';
import { consoleLocale, formatNumber, localDateTimeInput, setConsoleLocale } from './locale.js';
import { showAgentTime } from './time.js';

afterEach(() => setConsoleLocale(undefined));

describe('one locale for numbers and times (issue 56)', () => {
  it('writes thousands as the locale does, the same everywhere formatNumber() is used', () => {
    setConsoleLocale('de-DE');
    expect(formatNumber(1888)).toBe('1.888');
    expect(formatNumber(12.345, { fractionDigits: 1 })).toBe('12,3');
    setConsoleLocale('en-US');
    expect(formatNumber(1888)).toBe('1,888');
    setConsoleLocale(undefined);
    expect(consoleLocale()).toBeTruthy();
  });

  it('shows a time in the locale\'s order and clock, UTC in the agent\'s form for the hover', () => {
    expect(showAgentTime('2026-11-23 20:43:35.123456', { timeZone: 'Europe/Berlin', locale: 'de-DE' })).toEqual({ text: '23.11.2026, 21:43:35 MEZ', utc: '2026-11-23 20:43:35 UTC', iso: '2026-11-23T20:43:35.123Z' });
    expect(showAgentTime('2026-11-23 20:43:35', { timeZone: 'America/Chicago', locale: 'en-US' })?.text).toBe('11/23/2026, 02:43:35 PM CST');
    setConsoleLocale('de-DE');
    expect(showAgentTime('2026-07-01T06:00:00.250000Z', { timeZone: 'Europe/Berlin', millis: true })?.text).toBe('01.07.2026, 08:00:00,250 MESZ');
  });

  it('reads "Jump to time" typed in the locale\'s order, 24 h or AM/PM, and refuses what is no time', () => {
    const german = localDateTimeInput('de-DE');
    expect(german.example).toBe('31.12.2026, 22:45');
    expect(german.parse('31.12.2026 22:45')).toBe(new Date(2026, 11, 31, 22, 45).getTime());
    const american = localDateTimeInput('en-US');
    expect(american.example).toBe('12/31/2026, 10:45 PM');
    expect(american.parse('12/31/2026, 10:45 PM')).toBe(new Date(2026, 11, 31, 22, 45).getTime());
    expect(american.parse('12/31/2026, 12:05 AM')).toBe(new Date(2026, 11, 31, 0, 5).getTime());
    expect(german.parse('31.13.2026 22:45')).toBeUndefined();
    expect(german.parse('yesterday')).toBeUndefined();
  });
});
