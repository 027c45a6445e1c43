import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { StreamSelector, filterSelects, streamId } from './streams.js';

describe('stream selection', () => {
  it('selects exactly the streams filterSelects selects, in their order', () => {
    const name = fc.constantFrom('A', 'B', 'C', '*', 'A:B', '');
    const stream = fc.record({ asset: fc.constantFrom('A', 'B', 'C'), stream_type: fc.constantFrom('x', 'y', 'z') });
    const entry = fc.oneof(fc.constantFrom('*', 'A:*', '*:x', 'B:y', 'C:z', 'A:x', 'bad', 'A:B:C', ':x'), fc.tuple(name, name).map(([a, b]) => `${a}:${b}`));
    fc.assert(
      fc.property(fc.array(stream, { maxLength: 30 }), fc.option(fc.array(entry, { maxLength: 5 }), { nil: undefined }), (streams, filter) => {
        const expected = streams.filter((s) => filterSelects(filter, streamId(s.asset, s.stream_type)));
        expect(new StreamSelector(streams).select(filter)).toEqual(expected);
      }),
      { numRuns: 500 },
    );
  });
});
