import { describe, expect, it } from 'vitest';
import { storedMicros } from './backfill-gate.js';

describe('storedMicros (where a backfill starts)', () => {
  it('reads the source time of a stored last value to the microsecond', () => {
    const saved = JSON.stringify({ t: '2026-03-01T10:00:00.250125Z', node: 'ns=2;s=Counter', columns: { counter: 7, counter_status: 'Good' } });
    expect(storedMicros(saved)).toBe(BigInt(Date.parse('2026-03-01T10:00:00.250Z')) * 1000n + 125n);
    expect(storedMicros(JSON.stringify({ t: '2026-03-01T10:00:00Z' }))).toBe(BigInt(Date.parse('2026-03-01T10:00:00Z')) * 1000n);
  });

  it('starts live only when nothing usable is stored, never throws', () => {
    for (const saved of [undefined, '', '{', 'null', '[]', '{"t":5}', '{"t":"yesterday"}', '{"t":"2026-13-45T99:00:00Z"}', JSON.stringify({ columns: {} })]) expect(storedMicros(saved)).toBeUndefined();
  });
});
