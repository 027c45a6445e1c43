/**
 * The record time functions in the form a parser's hot loop has its values: milliseconds of a
 * whole second plus microseconds, without bigint arithmetic for every row.
 */
import { isoFromMicros, isoMicros } from '../../../shared/records/record.js';

/** isoMicros of the instant `utcMs` plus `microsecond` (0..999999), byte for byte the same text. */
export function isoFromUtcMs(utcMs: number, microsecond: number): string {
  const micros = utcMs * 1000 + microsecond;
  return Number.isSafeInteger(micros) ? isoFromMicros(micros) : isoMicros(microsFromUtcMs(utcMs, microsecond));
}

/** BigInt(utcMs) * 1000n + BigInt(microsecond), through a plain number when that is exact. */
export function microsFromUtcMs(utcMs: number, microsecond: number): bigint {
  // |utcMs| ≤ 9e12 and |microsecond| < 1e6 keep the sum below 2^53, so it is exact.
  if (Number.isInteger(utcMs) && utcMs >= -9e12 && utcMs <= 9e12 && Number.isInteger(microsecond) && microsecond > -1_000_000 && microsecond < 1_000_000) {
    return BigInt(utcMs * 1000 + microsecond);
  }
  return BigInt(utcMs) * 1000n + BigInt(microsecond);
}
