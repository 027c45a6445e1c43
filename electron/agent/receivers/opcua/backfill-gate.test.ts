import { describe, expect, it } from 'vitest';
import { storedMicros } from './backfill-gate.js';
import { parseSpans, spansText } from './gap-spans.js';

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

describe('stored gaps (gap:<exportname>)', () => {
  const at = (iso: string) => BigInt(Date.parse(iso)) * 1000n;
  it('round-trip to the microsecond, in time order', () => {
    const spans = [
      { from: at('2026-03-01T10:05:00Z'), to: at('2026-03-01T10:06:00Z') + 7n },
      { from: at('2026-03-01T10:00:00Z') + 125n, to: at('2026-03-01T10:01:00Z') },
    ];
    expect(spansText(spans)).toBe('[["2026-03-01T10:00:00.000125Z","2026-03-01T10:01:00.000000Z"],["2026-03-01T10:05:00.000000Z","2026-03-01T10:06:00.000007Z"]]');
    expect(parseSpans(spansText(spans))).toEqual([spans[1], spans[0]]);
  });

  it('merges the oldest beyond 16 gaps, so that a flapping connection keeps one row of bounded size', () => {
    const spans = Array.from({ length: 20 }, (_, i) => ({ from: BigInt(i) * 10_000_000n + 1_700_000_000_000_000n, to: BigInt(i) * 10_000_000n + 1_700_000_005_000_000n }));
    const kept = parseSpans(spansText(spans));
    expect(kept).toHaveLength(16);
    expect(kept[0]).toEqual({ from: spans[0]!.from, to: spans[4]!.to });
    expect(kept.at(-1)).toEqual(spans[19]);
  });

  it('reads nothing unusable as a gap, never throws', () => {
    for (const saved of [undefined, '', '[]', '{', 'null', '{"a":1}', '[[1,2]]', '[["2026-03-01T10:01:00Z","2026-03-01T10:00:00Z"]]', '[["x","y"]]']) expect(parseSpans(saved)).toEqual([]);
  });
});
