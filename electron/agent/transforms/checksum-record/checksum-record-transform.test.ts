import fc from 'fast-check';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ChecksumRecordTransformSchema } from '../../../../shared/config/schema.js';
import { record } from '../../../testing/records.js';
import { canonicalJson, createChecksumRecordTransform, recordChecksum } from './checksum-record-transform.js';

const checksum = (extra: Record<string, unknown> = {}) =>
  createChecksumRecordTransform(ChecksumRecordTransformSchema.parse({ transform_name: 'c', transform_type: 'checksum_record', filter_stream: ['*'], ...extra }));

describe('canonicalJson', () => {
  it('sorts object keys at every level and keeps array order', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { z: 1, y: null }], c: 'x' } })).toBe('{"a":{"c":"x","d":[2,{"y":null,"z":1}]},"b":1}');
  });
});

describe('checksum_record', () => {
  it('stores the SHA-256 of the canonical JSON of asset, stream_type, timestamp and fieldvalues', () => {
    const input = record({ b: 2, a: 'x' });
    const out = checksum().apply([input]).records[0]!;
    const expected = createHash('sha256')
      .update('{"asset":"Press_1","fieldvalues":{"a":"x","b":2},"stream_type":"cycle","timestamp":"2026-01-05T06:00:00.000000Z"}')
      .digest('hex');
    expect(out.fieldvalues.factorytx_checksum).toBe(expected);
    expect(input.fieldvalues).toEqual({ b: 2, a: 'x' });
  });

  it('is the same whatever the order of the columns, and differs when a value differs', () => {
    const [one] = checksum().apply([record({ a: 1, b: 2 })]).records;
    const [two] = checksum().apply([record({ b: 2, a: 1 })]).records;
    const [three] = checksum().apply([record({ a: 1, b: 3 })]).records;
    expect(one!.fieldvalues.factorytx_checksum).toBe(two!.fieldvalues.factorytx_checksum);
    expect(one!.fieldvalues.factorytx_checksum).not.toBe(three!.fieldvalues.factorytx_checksum);
  });

  it('covers only the chosen record_keys and writes to output_field', () => {
    const transform = checksum({ record_keys: ['asset', 'fieldvalues'], output_field: 'sum' });
    const [a] = transform.apply([record({ v: 1 }, { timestamp: '2026-01-01T00:00:00.000000Z', capturetime: 'x' })]).records;
    const [b] = transform.apply([record({ v: 1 }, { timestamp: '2027-01-01T00:00:00.000000Z', stream_type: 'other' })]).records;
    const [c] = transform.apply([record({ v: 1 }, { asset: 'Press_2' })]).records;
    expect(a!.fieldvalues.sum).toMatch(/^[0-9a-f]{64}$/);
    expect(a!.fieldvalues.sum).toBe(b!.fieldvalues.sum);
    expect(a!.fieldvalues.sum).not.toBe(c!.fieldvalues.sum);
  });

  it('gives the same checksum when run twice (its own column is not hashed)', () => {
    const once = checksum().apply([record({ a: 1 })]).records;
    const twice = checksum().apply(once).records;
    expect(twice[0]!.fieldvalues.factorytx_checksum).toBe(once[0]!.fieldvalues.factorytx_checksum);
  });

  it('is recordChecksum of the record without its output column, for any columns and parts', () => {
    const name = fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom('factorytx_checksum', 'sum', '1', '10', '__proto__', 'é', '\u{1F600}'));
    const value = fc.oneof(fc.string(), fc.double(), fc.integer(), fc.boolean(), fc.constant(null), fc.constant(undefined));
    const parts = fc.uniqueArray(fc.constantFrom('asset', 'stream_type', 'timestamp', 'fieldvalues'), { minLength: 1 });
    fc.assert(
      fc.property(fc.dictionary(name, value, { maxKeys: 8 }), parts, fc.constantFrom(undefined, 'sum', '__proto__'), fc.option(fc.string()), (fieldvalues, keys, output, asset) => {
        const input = record(fieldvalues as never, asset === null ? {} : { asset });
        const transform = checksum({ record_keys: keys, ...(output ? { output_field: output } : {}) });
        const field = output ?? 'factorytx_checksum';
        const { [field]: _previous, ...others } = input.fieldvalues;
        expect(transform.apply([input]).records[0]!.fieldvalues[field]).toBe(recordChecksum({ ...input, fieldvalues: others }, keys as never));
      }),
      { numRuns: 3000 },
    );
  });
});
