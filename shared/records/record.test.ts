import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isoFromMicros, isoMicros } from './record.js';

/** The straightforward formatting, with bigint arithmetic throughout. */
function reference(epochMicros: bigint): string {
  const iso = new Date(Number(epochMicros / 1000n - (epochMicros % 1000n < 0n ? 1n : 0n))).toISOString();
  const fraction = String(((epochMicros % 1_000_000n) + 1_000_000n) % 1_000_000n).padStart(6, '0');
  return `${iso.slice(0, 19)}.${fraction}Z`;
}

describe('isoMicros', () => {
  it('formats known instants with six fraction digits', () => {
    expect(isoMicros(0n)).toBe('1970-01-01T00:00:00.000000Z');
    expect(isoMicros(1_767_592_800_123_456n)).toBe('2026-01-05T06:00:00.123456Z');
    expect(isoMicros(-1n)).toBe('1969-12-31T23:59:59.999999Z');
    expect(isoMicros(253_402_300_799_999_999n)).toBe('9999-12-31T23:59:59.999999Z');
  });

  it('equals the bigint formatting for any instant between the years 1000 and 9999, in any order of calls', () => {
    const instant = fc.bigInt({ min: -30_610_224_000_000_000n, max: 253_402_300_799_999_999n });
    // Runs of nearby instants exercise the reuse of the last second's text.
    const run = fc.tuple(instant, fc.array(fc.integer({ min: -2_000_000, max: 2_000_000 }), { maxLength: 20 }));
    fc.assert(
      fc.property(run, ([start, steps]) => {
        let t = start;
        for (const step of [0, ...steps]) {
          t += BigInt(step);
          if (t < -30_610_224_000_000_000n || t > 253_402_300_799_999_999n) continue;
          expect(isoMicros(t)).toBe(reference(t));
          if (t >= BigInt(Number.MIN_SAFE_INTEGER) && t <= BigInt(Number.MAX_SAFE_INTEGER)) expect(isoFromMicros(Number(t))).toBe(reference(t));
        }
      }),
      { numRuns: 2000 },
    );
  });
});
