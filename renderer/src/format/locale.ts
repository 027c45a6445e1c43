/**
 * The console's locale, chosen in one place (issue 56): numbers, dates and times are written the
 * way the browser's language writes them. Issue 57 (the text catalog) sets it through
 * setConsoleLocale; nothing else in the console names a locale.
 */

let chosen: string | undefined;
const numberFormats = new Map<string, Intl.NumberFormat>();

/** The locale in use: the one set, else the browser's language, else en-US (tests without a browser). */
export function consoleLocale(): string {
  if (chosen) return chosen;
  const language = typeof navigator === 'undefined' ? undefined : navigator.language;
  return language || 'en-US';
}

/** Sets the locale (undefined: the browser's again); formats made for the previous one are dropped. */
export function setConsoleLocale(locale: string | undefined): void {
  chosen = locale;
  numberFormats.clear();
}

/**
 * A number as the locale writes it: thousands separators and decimal mark ("1,832" or "1.832");
 * `fractionDigits` fixes the decimals (toFixed, in the locale), `maximumFractionDigits` caps them.
 */
export function formatNumber(value: number, options: { maximumFractionDigits?: number; fractionDigits?: number; locale?: string } = {}): string {
  const locale = options.locale ?? consoleLocale();
  const key = `${locale}\0${options.maximumFractionDigits ?? ''}\0${options.fractionDigits ?? ''}`;
  let format = numberFormats.get(key);
  if (!format) {
    const digits = options.fractionDigits === undefined ? (options.maximumFractionDigits === undefined ? {} : { maximumFractionDigits: options.maximumFractionDigits }) : { minimumFractionDigits: options.fractionDigits, maximumFractionDigits: options.fractionDigits };
    format = new Intl.NumberFormat(locale, digits);
    numberFormats.set(key, format);
  }
  return format.format(value);
}

/** The order and separators of a date and time in the locale, as `formatToParts` of one moment gives them. */
function partsOf(locale: string) {
  const format = new Intl.DateTimeFormat(locale, { year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' });
  return format.formatToParts(new Date(Date.UTC(2026, 11, 31, 22, 45)));
}

/**
 * A typed local date and time in the locale's own order ("31.12.2026 22:45", "12/31/2026, 10:45 PM"),
 * for "Jump to time": the browser's date picker writes the browser's UI language, not the page's.
 */
export function localDateTimeInput(locale = consoleLocale()) {
  const parts = partsOf(locale);
  const order = parts.filter((p) => ['year', 'month', 'day', 'hour', 'minute'].includes(p.type)).map((p) => p.type);
  const twelveHour = parts.some((p) => p.type === 'dayPeriod');
  const example = new Intl.DateTimeFormat(locale, { year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' }).format(new Date(2026, 11, 31, 22, 45));
  return {
    example,
    /** Epoch ms of the typed local time (its minute), undefined when it cannot be read. */
    parse(text: string): number | undefined {
      const numbers = text.match(/\d+/g);
      if (!numbers || numbers.length < order.length) return undefined;
      const value: Record<string, number> = {};
      order.forEach((type, i) => (value[type] = Number(numbers[i])));
      let hour = value.hour!;
      if (twelveHour) {
        const pm = /p\.?\s*m\.?/i.test(text);
        const am = /a\.?\s*m\.?/i.test(text);
        if (hour === 12 && am) hour = 0;
        else if (hour < 12 && pm) hour += 12;
      }
      const date = new Date(value.year!, value.month! - 1, value.day!, hour, value.minute!);
      const valid = date.getFullYear() === value.year && date.getMonth() === value.month! - 1 && date.getDate() === value.day && value.minute! < 60 && hour < 24;
      return valid ? date.getTime() : undefined;
    },
  };
}
