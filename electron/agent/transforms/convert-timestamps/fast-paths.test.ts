import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isoMicros } from '../../../../shared/records/record.js';
import { fastIsoUtc } from './fast-paths.js';

const pad = (n: number, width: number) => String(n).padStart(width, '0');

/** The general path for ISO UTC texts (convert-timestamps-transform.ts): regex, Date, isoMicros. */
function generalIsoUtc(text: string): string | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?Z$/.exec(text.trim());
  if (!match) return undefined;
  const [, y, mo, d, h, mi, s, fraction] = match;
  const date = new Date(0);
  date.setUTCFullYear(Number(y), Number(mo) - 1, Number(d));
  date.setUTCHours(Number(h), Number(mi), Number(s), 0);
  if (date.getUTCDate() !== Number(d) || date.getUTCHours() !== Number(h)) return undefined;
  return isoMicros(BigInt(date.getTime()) * 1000n + BigInt((fraction ?? '').slice(0, 6).padEnd(6, '0')));
}

const twoDigits = fc.integer({ min: 0, max: 99 });
const isoText = fc.oneof(
  fc
    .tuple(fc.integer({ min: -62_167_219_200_000, max: 253_402_300_799_999 }), fc.integer({ min: 0, max: 10 }), fc.integer({ min: 0, max: 999_999_999 }))
    .map(([ms, digits, extra]) => {
      const iso = new Date(ms).toISOString();
      return digits === 0 ? `${iso.slice(0, 19)}Z` : `${iso.slice(0, 20)}${(iso.slice(20, 23) + pad(extra, 9)).slice(0, digits)}Z`;
    }),
  fc
    .tuple(fc.integer({ min: 0, max: 9999 }), twoDigits, twoDigits, twoDigits, twoDigits, twoDigits, fc.constantFrom('', '.', '.5', '.123456', '.000001', '.1234567891'))
    .map(([y, mo, d, h, mi, s, f]) => `${pad(y, 4)}-${pad(mo, 2)}-${pad(d, 2)}T${pad(h, 2)}:${pad(mi, 2)}:${pad(s, 2)}${f}Z`),
  fc.constantFrom('1969-12-31T23:59:59.999500Z', '1969-12-31T23:59:59.000001Z', ' 2026-01-05T06:00:00Z', '2026-01-05t06:00:00z', '2026-01-05T06:00:00+00:00'),
  fc.string(),
);

describe('fastIsoUtc', () => {
  it('gives what the general path gives, or declines', () => {
    fc.assert(
      fc.property(isoText, (text) => {
        const fast = fastIsoUtc(text);
        if (fast !== undefined) expect(fast).toBe(generalIsoUtc(text));
      }),
      { numRuns: 20_000 },
    );
  });

  it('takes the texts parsers write, and returns them as they are', () => {
    const text = '2026-01-01T00:00:01.000000Z';
    expect(fastIsoUtc(text)).toBe(text);
    expect(fastIsoUtc('2026-01-05T06:00:00Z')).toBe('2026-01-05T06:00:00.000000Z');
    expect(fastIsoUtc('2026-01-05T06:00:00.5Z')).toBe('2026-01-05T06:00:00.500000Z');
    expect(fastIsoUtc('2026-02-29T00:00:00Z')).toBeUndefined();
  });
});
