import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isoMicros } from '../../../shared/records/record.js';
import { isoFromUtcMs, microsFromUtcMs } from './iso-format.js';

const SECOND = 1000;
/** Whole seconds from year 0 to past 9999 (both ends fall back to isoMicros itself). */
const utcSeconds = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: 1_600_000_000, max: 2_100_000_000 }) },
  { weight: 2, arbitrary: fc.integer({ min: -62_167_219_200, max: 253_402_300_799 + 86_400 * 400 }) },
  { weight: 1, arbitrary: fc.constantFrom(0, -1, 1, 86_399, 86_400, 253_402_300_799, 253_402_300_800, -62_135_596_800) },
);
const microseconds = fc.oneof(fc.integer({ min: 0, max: 999_999 }), fc.constantFrom(0, 1, 999, 1000, 99_999, 100_000, 999_999));

describe('isoFromUtcMs', () => {
  it('writes the same text as isoMicros', () => {
    fc.assert(
      fc.property(utcSeconds, microseconds, (seconds, microsecond) => {
        expect(isoFromUtcMs(seconds * SECOND, microsecond)).toBe(isoMicros(BigInt(seconds * SECOND) * 1000n + BigInt(microsecond)));
      }),
      { numRuns: 20_000 },
    );
  });

  it('writes the same text for runs of nearby times (as rows of a file come)', () => {
    fc.assert(
      fc.property(utcSeconds, fc.array(fc.tuple(fc.integer({ min: 0, max: 200_000 }), microseconds), { maxLength: 50 }), (start, steps) => {
        let seconds = start;
        for (const [step, microsecond] of steps) {
          seconds += step;
          expect(isoFromUtcMs(seconds * SECOND, microsecond)).toBe(isoMicros(BigInt(seconds * SECOND) * 1000n + BigInt(microsecond)));
        }
      }),
      { numRuns: 500 },
    );
  });

  it('writes the known shapes', () => {
    expect(isoFromUtcMs(Date.UTC(2026, 0, 5, 6), 0)).toBe('2026-01-05T06:00:00.000000Z');
    expect(isoFromUtcMs(Date.UTC(2026, 0, 5, 6, 7, 8), 90)).toBe('2026-01-05T06:07:08.000090Z');
    expect(isoFromUtcMs(-1000, 1)).toBe(isoMicros(-999_999n));
  });
});

describe('microsFromUtcMs', () => {
  it('is BigInt(utcMs) * 1000n + BigInt(microsecond)', () => {
    fc.assert(
      fc.property(utcSeconds, microseconds, (seconds, microsecond) => {
        expect(microsFromUtcMs(seconds * SECOND, microsecond)).toBe(BigInt(seconds * SECOND) * 1000n + BigInt(microsecond));
      }),
      { numRuns: 20_000 },
    );
  });
});
