import { describe, expect, it } from 'vitest';
import { specExampleConfiguration } from '../testing/config-fixtures.js';
import { validateConfiguration } from './validate.js';

type Doc = Record<string, any>;
const unsent = (doc: Doc) => validateConfiguration(doc).violations.filter((v) => /No transmit sends/.test(v.description));

describe('a stream that no transmit takes (issue 56)', () => {
  it('is a warning at its receiver that names the stream', () => {
    const doc: Doc = specExampleConfiguration();
    doc.data_transmit[0].filter_stream = ['Press_1:cycle'];
    const found = unsent(doc);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ level: 'warning', json_path: ['data_receiver', 0] });
    expect(found[0]!.description).toMatch(/"Oven_2:process"/);
    expect(found[0]!.description).toMatch(/no transmit/i);
    // A warning does not fail validation: the configuration can still be saved.
    expect(validateConfiguration(doc).violations.filter((v) => v.level === 'error')).toEqual([]);
  });

  it('warns for every stream when data_transmit is empty, and not at all once one transmit takes all', () => {
    const doc: Doc = specExampleConfiguration();
    doc.data_transmit = [];
    expect(unsent(doc).map((v) => v.description.match(/"([^"]+)"/)![1])).toEqual(['Press_1:cycle', 'Oven_2:process']);
    const all: Doc = specExampleConfiguration();
    expect(unsent(all)).toEqual([]);
  });

  it('counts asset and stream-type wildcards as taking the stream', () => {
    const doc: Doc = specExampleConfiguration();
    doc.data_transmit[0].filter_stream = ['Press_1:*', '*:process'];
    expect(unsent(doc)).toEqual([]);
  });
});
