import { describe, expect, it } from 'vitest';
import { bytes } from './quantities.js';
import { applyLanguage, text } from '../i18n/language.js';
import { LANGUAGES } from '../i18n/languages.js';
import { ago, parseAgentTime, showAgentTime } from './time.js';

describe('times', () => {
  it('reads both forms the agent uses, as UTC', () => {
    expect(parseAgentTime('2026-11-23 20:43:35.123456')).toBe(Date.parse('2026-11-23T20:43:35.123Z'));
    expect(parseAgentTime('2026-11-23T20:43:35.000000Z')).toBe(Date.parse('2026-11-23T20:43:35Z'));
    expect(parseAgentTime('yesterday')).toBeNaN();
  });

  it('shows local time with its zone, and UTC for the hover', () => {
    expect(showAgentTime('2026-11-23 20:43:35.123456', { timeZone: 'Europe/Berlin', locale: 'en-GB' })).toEqual({
      text: '23/11/2026, 21:43:35 CET',
      utc: '2026-11-23 20:43:35 UTC',
      iso: '2026-11-23T20:43:35.123Z',
    });
    expect(showAgentTime('2026-07-01T06:00:00.250000Z', { timeZone: 'America/Chicago', locale: 'en-US', millis: true })?.text).toBe('07/01/2026, 01:00:00.250 AM CDT');
  });

  it('says how long ago', () => {
    const now = Date.parse('2026-01-05T10:00:00Z');
    expect(ago(now - 500, now)).toBe('just now');
    expect(ago(now - 12_000, now)).toBe('12 s ago');
    expect(ago(now - 5 * 60_000, now)).toBe('5 min ago');
    expect(ago(now - 3 * 3_600_000, now)).toBe('3 h ago');
  });
});

describe('quantities', () => {
  it('uses the singular for one only, with the locale’s thousands, in English and German', () => {
    expect(text('common.errors', { count: 1 })).toBe('1 error');
    expect(text('common.errors', { count: 0 })).toBe('0 errors');
    expect(text('common.services', { count: 2 })).toBe('2 services');
    expect(text('common.records', { count: 12_345 })).toBe('12,345 records');
    applyLanguage(LANGUAGES.find((l) => l.code === 'de')!);
    try {
      expect(text('common.records', { count: 1 })).toBe('1 Datensatz');
      expect(text('common.records', { count: 1832 })).toBe('1.832 Datensätze');
      expect(bytes(1_310_720)).toBe('1,25 MiB');
      expect(ago(Date.now() - 3 * 3_600_000, Date.now())).toBe('vor 3 h');
    } finally {
      applyLanguage(LANGUAGES[0]!);
    }
  });

  it('gives byte sizes in binary units', () => {
    expect(bytes(1)).toBe('1 byte');
    expect(bytes(512)).toBe('512 bytes');
    expect(bytes(498_805)).toBe('487 KiB');
    expect(bytes(1_310_720)).toBe('1.25 MiB');
    expect(bytes(5 * 1024 ** 3)).toBe('5.00 GiB');
  });
});
