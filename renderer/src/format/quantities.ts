/** Sizes in words: "512 bytes", "487 KiB" (counts with their nouns are the catalog's plurals). */
import { text } from '../i18n/language.js';
import { formatNumber } from './locale.js';

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
