// The hand-written reader of stored spreadsheet parser states (parser-types.ts) accepts, refuses
// and returns exactly what the zod schema it replaced did, over generated states: well-formed, of
// older builds (no linesSeen), with extra keys, and broken in every field.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { lookupEncoding } from '../../../../shared/config/encodings.js';
import { checkSpreadsheetState } from './parser-types.js';

/** The schema the states were read with before (the reference). */
const Reference = z.object({
  header: z.array(z.string()).nullable(),
  rowsSeen: z.number().int().min(0),
  linesSeen: z.number().int().min(0).default(0),
  counter: z.number().int().min(0),
  encoding: z.string().refine((name) => lookupEncoding(name) !== undefined).nullable(),
});

const count = fc.oneof(fc.nat(), fc.integer({ min: -5, max: -1 }), fc.double(), fc.constant(Number.NaN), fc.constant(2 ** 53), fc.string(), fc.constant(null));
const state = fc.record(
  {
    header: fc.oneof(fc.constant(null), fc.array(fc.string()), fc.array(fc.oneof(fc.string(), fc.integer())), fc.string()),
    rowsSeen: count,
    linesSeen: count,
    counter: count,
    encoding: fc.oneof(fc.constant(null), fc.constantFrom('utf-8', 'utf_8', 'latin1', 'cp1252', 'utf-16le', 'utf-32', 'klingon', ''), fc.integer()),
    extra: fc.anything(),
  },
  { requiredKeys: [] },
);

const wellFormed = fc.record(
  {
    header: fc.oneof(fc.constant(null), fc.array(fc.string())),
    rowsSeen: fc.nat(),
    linesSeen: fc.nat(),
    counter: fc.nat(),
    encoding: fc.constantFrom(null, 'utf-8', 'latin1', 'cp1252'),
  },
  { requiredKeys: ['header', 'rowsSeen', 'counter', 'encoding'] },
);

describe('spreadsheet parser states read from storage', () => {
  it('are read as the zod schema read them', () => {
    fc.assert(
      fc.property(fc.oneof(state, wellFormed, fc.anything()), (value) => {
        const reference = Reference.safeParse(value);
        const checked = checkSpreadsheetState(value);
        if (reference.success) expect(checked).toEqual(reference.data);
        else expect(typeof checked).toBe('string');
      }),
      { numRuns: 2000 },
    );
  });
});
