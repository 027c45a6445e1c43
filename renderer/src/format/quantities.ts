/** Counts and sizes in words: "1 error", "3 errors", "487 KiB". */
import { text } from '../i18n/language.js';
import { formatNumber } from './locale.js';

/** `count` and the noun, singular for exactly one; `many` for irregular plurals. */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${formatNumber(count)} ${count === 1 ? one : many}`;
}

const UNITS = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'] as const;

/** Bytes in binary units with three significant digits: 512 bytes, 487 KiB, 1.25 MiB. */
export function bytes(count: number): string {
  if (!Number.isFinite(count) || count < 0) return '—';
  if (count < 1024) return text('units.bytes', { count });
  let value = count;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const digits = value >= 100 ? 0 : value >= 10 ? 1 : 2;
  return `${formatNumber(value, { fractionDigits: digits })} ${UNITS[unit]}`;
}
