/** The words of the console's charts: time ticks, the tooltip's time and values, in the console's locale. */
import { consoleLocale, formatNumber } from '../format/locale.js';

const pad = (n: number) => String(n).padStart(2, '0');

/** Day and month (and year) in the console's locale: 24.11. or 11/24. */
export const DAY = () => new Intl.DateTimeFormat(consoleLocale(), { day: '2-digit', month: '2-digit' });
/** The moment under the pointer, as the locale writes a date and time (29.11.2026, 14:03:05). */
export const TOOLTIP_TIME = () => new Intl.DateTimeFormat(consoleLocale(), { year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
export const DAY_WITH_YEAR = () => new Intl.DateTimeFormat(consoleLocale(), { day: '2-digit', month: '2-digit', year: 'numeric' });

/** Time tick labels in local time, 24-hour: 10:29:50, 10:30, and the day in the locale's order at day steps and where a day begins. */
export function timeTicks(seconds: readonly number[], step: number): string[] {
  return seconds.map((s, i) => {
    const d = new Date(s * 1000);
    const time = `${pad(d.getHours())}:${pad(d.getMinutes())}`;
    if (step >= 86_400) return i === 0 ? DAY_WITH_YEAR().format(d) : DAY().format(d);
    // A new day within the range is named at its first tick.
    const dayChanged = i > 0 && new Date(seconds[i - 1]! * 1000).getDate() !== d.getDate();
    const label = step < 60 ? `${time}:${pad(d.getSeconds())}` : time;
    return dayChanged ? `${DAY().format(d)} ${label}` : label;
  });
}

/** A value on the y axis or in the tooltip: six significant digits at most, in the locale ("1.234,5 %"). */
export function valueLabel(value: number, unit: string | null | undefined): string {
  return `${formatNumber(Number(value.toPrecision(6)), { maximumFractionDigits: 6 })}${unit ? ` ${unit}` : ''}`;
}
