/**
 * One way to show a time in the console: local time as the browser's language writes it, with its
 * zone (`23.11.2026, 21:43:35 MEZ`, `11/23/2026, 09:43:35 PM CST`), and
 * UTC for the hover (`2026-11-23 20:43:35 UTC`). The agent speaks UTC in two forms: ISO 8601 with Z
 * and the spec's `YYYY-MM-DD HH:MM:SS.ffffff`; both are read here.
 */
import { text } from '../i18n/language.js';
import { consoleLocale } from './locale.js';

const SPEC_FORM = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})(\.\d+)?(Z|[+-]\d{2}:?\d{2})?$/;

/** Milliseconds since the epoch of an agent time; NaN when unreadable. Times without a zone are UTC. */
export function parseAgentTime(text: string): number {
  const match = SPEC_FORM.exec(text.trim());
  if (!match) return Number.NaN;
  const [, date, time, fraction = '', zone = 'Z'] = match;
  return Date.parse(`${date}T${time}${fraction.slice(0, 4)}${zone}`);
}

export interface ShownTime {
  /** Local time with the zone's short name. */
  text: string;
  /** The same moment in UTC, for the title. */
  utc: string;
  /** ISO 8601, for <time dateTime>. */
  iso: string;
}

/** The local date and time as the locale writes them (day, month and year in its order, its clock), with the zone. */
function localText(ms: number, timeZone: string | undefined, locale: string, millis: boolean): string {
  const format = new Intl.DateTimeFormat(locale, {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    ...(millis ? { fractionalSecondDigits: 3 as const } : {}),
    timeZoneName: 'short',
  });
  return format.format(new Date(ms));
}

export interface ShowOptions {
  /** Default: the browser's zone. */
  timeZone?: string;
  /** Default: the console's locale (format/locale.ts: the browser's language). */
  locale?: string;
  /** Add milliseconds (log lines). */
  millis?: boolean;
}

/** `ms` as local time (or in `timeZone`). */
export function showTime(ms: number, options: ShowOptions = {}): ShownTime {
  const iso = new Date(ms).toISOString();
  return {
    text: localText(ms, options.timeZone, options.locale ?? consoleLocale(), options.millis ?? false),
    // The hover stays in the agent's form: what its logs and the API say, for comparing.
    utc: `${iso.slice(0, 10)} ${iso.slice(11, options.millis ? 23 : 19)} UTC`,
    iso,
  };
}

/** An agent time (ISO or spec form) shown; undefined when unreadable. */
export function showAgentTime(text: string, options: ShowOptions = {}): ShownTime | undefined {
  const ms = parseAgentTime(text);
  return Number.isNaN(ms) ? undefined : showTime(ms, options);
}

/** "just now", "12 s ago", "3 min ago", "2 h ago", "4 days ago". */
export function ago(ms: number, now: number): string {
  const seconds = Math.max(0, Math.round((now - ms) / 1000));
  if (seconds < 2) return text('time.justNow');
  if (seconds < 120) return text('time.secondsAgo', { count: seconds });
  const minutes = Math.round(seconds / 60);
  if (minutes < 120) return text('time.minutesAgo', { count: minutes });
  const hours = Math.round(minutes / 60);
  if (hours < 48) return text('time.hoursAgo', { count: hours });
  const days = Math.round(hours / 24);
  return text('time.daysAgo', { count: days });
}
