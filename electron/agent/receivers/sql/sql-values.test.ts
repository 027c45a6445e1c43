/**
 * Driver values that become record fields (issue 39): a parsed json value of any depth or size
 * gives JSON text or an unreadable cell with the reason, never an exception that would stop the
 * stream at that row.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JSON_LIMITS } from '../../decoding/bounded-json.js';
import { fieldValueOf, isUnreadable, plainValue, stateValueOf } from './sql-values.js';

const nested = (levels: number): unknown => JSON.parse(`${'['.repeat(levels)}1${']'.repeat(levels)}`);

describe('SQL driver values', () => {
  it('keeps json within the bounds as JSON text and marks deeper json unreadable, null in the record', () => {
    expect(plainValue({ a: [1, { b: 2n }] })).toBe('{"a":[1,{"b":"2"}]}');
    expect(plainValue(nested(JSON_LIMITS.maxDepth))).toBe(JSON.stringify(nested(JSON_LIMITS.maxDepth)));
    const deep = plainValue({ a: nested(6000) });
    expect(deep).toMatchObject({ kind: 'unreadable', reason: `a JSON value nested deeper than ${JSON_LIMITS.maxDepth} levels` });
    expect(fieldValueOf(deep, 'UTC')).toBeNull();
    // Never a state value: the previous one is kept.
    expect(stateValueOf('string', deep)).toBeUndefined();
  });

  it('never throws, whatever the nesting (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 20_000 }), fc.boolean(), (levels, inObject) => {
        const value = inObject ? { doc: nested(levels) } : nested(levels);
        const cell = plainValue(value);
        expect(isUnreadable(cell)).toBe(levels + (inObject ? 1 : 0) > JSON_LIMITS.maxDepth);
      }),
      { numRuns: 100 },
    );
  });
});
