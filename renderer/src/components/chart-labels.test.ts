import { afterEach, describe, expect, it } from 'vitest';
import { setConsoleLocale } from '../format/locale.js';
import { timeTicks, TOOLTIP_TIME, valueLabel } from './chart-labels.js';

afterEach(() => setConsoleLocale(undefined));

const at = (iso: string) => new Date(iso).getTime() / 1000;

describe('chart labels in the console locale (issue 57 point 3)', () => {
  it('writes axis values and tooltips with the locale’s marks', () => {
    setConsoleLocale('de-DE');
    expect(valueLabel(12.5, '%')).toBe('12,5 %');
    expect(valueLabel(1832, null)).toBe('1.832');
    expect(TOOLTIP_TIME().format(new Date(2026, 10, 29, 14, 3, 5))).toBe('29.11.2026, 14:03:05');
    setConsoleLocale('en-US');
    expect(valueLabel(12.5, '%')).toBe('12.5 %');
    expect(valueLabel(1832, null)).toBe('1,832');
  });

  it('names days in the locale’s order on the time axis, 24-hour times between', () => {
    setConsoleLocale('de-DE');
    expect(timeTicks([at('2026-11-24T12:00:00'), at('2026-11-25T12:00:00')], 86_400)).toEqual(['24.11.2026', '25.11.']);
    expect(timeTicks([at('2026-11-24T23:30:00'), at('2026-11-25T00:00:00')], 1800)).toEqual(['23:30', '25.11. 00:00']);
    setConsoleLocale('en-US');
    expect(timeTicks([at('2026-11-24T12:00:00'), at('2026-11-25T12:00:00')], 86_400)).toEqual(['11/24/2026', '11/25']);
  });
});
