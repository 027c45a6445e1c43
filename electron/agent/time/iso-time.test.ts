import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isoMicros } from '../../../shared/records/record.js';
import { parseTimestampToMicros } from '../../../shared/api/envelope.js';
import { isoFromUtcMs, isoToEpochMicros, isoToEpochMs, microsFromUtcMs } from './iso-time.js';

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

const isoText = (ms: number, digits: number) => {
  const iso = new Date(ms).toISOString();
  const fraction = `${iso.slice(20, 23)}${String((ms * 7919) % 1_000_000).padStart(6, '0')}`.slice(0, digits);
  return digits === 0 ? `${iso.slice(0, 19)}Z` : `${iso.slice(0, 20)}${fraction}Z`;
};
const epochMs = fc.integer({ min: -62_167_219_200_000, max: 253_402_300_799_999 });
const twoDigits = fc.integer({ min: 0, max: 99 }).map((n) => String(n).padStart(2, '0'));
const timestampText = fc.oneof(
  { weight: 4, arbitrary: epochMs.map((ms) => isoText(ms, 6)) },
  fc.tuple(epochMs, fc.integer({ min: 0, max: 12 })).map(([ms, digits]) => isoText(ms, digits)),
  // Near-ISO texts with out-of-range fields, odd case and odd fractions: Date decides those.
  fc
    .tuple(fc.integer({ min: 0, max: 9999 }), twoDigits, twoDigits, fc.constantFrom('T', 't', ' '), twoDigits, twoDigits, twoDigits, fc.constantFrom('', '.', '.5', '.123456', '.1234567890'), fc.constantFrom('Z', 'z', '+01:00', ''))
    .map(([y, mo, d, t, h, mi, s, f, z]) => `${String(y).padStart(4, '0')}-${mo}-${d}${t}${h}:${mi}:${s}${f}${z}`),
  fc.constantFrom('', 'garbage', '2026-01-05 07:00', '2026-02-30T00:00:00Z', '2026-01-01T24:00:00Z', '+002026-01-01T00:00:00Z', '2026-01-01', '1969-12-31T23:59:59.999999Z'),
  fc.string({ maxLength: 40 }),
);

describe('reading time stamp texts', () => {
  it('isoToEpochMs is new Date(text).getTime() for ISO texts and anything else', () => {
    fc.assert(
      fc.property(timestampText, (text) => {
        expect(Object.is(isoToEpochMs(text), new Date(text).getTime())).toBe(true);
      }),
      { numRuns: 5000 },
    );
  });

  it('isoToEpochMicros reads what parseTimestampToMicros reads, microseconds included', () => {
    fc.assert(
      fc.property(timestampText, (text) => {
        const expected = parseTimestampToMicros(text);
        expect(isoToEpochMicros(text)).toBe(expected === undefined ? undefined : Number(expected));
      }),
      { numRuns: 5000 },
    );
    expect(isoToEpochMicros('2026-01-05T06:00:01.123456Z')).toBe(Date.parse('2026-01-05T06:00:01Z') * 1000 + 123_456);
  });
});
