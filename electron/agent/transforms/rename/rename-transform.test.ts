import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RenameTransformSchema } from '../../../../shared/config/schema.js';
import type { FieldValue } from '../../../../shared/records/record.js';
import { record } from '../../../testing/records.js';
import { createRenameTransform } from './rename-transform.js';

const rename = (renames: Record<string, string>) =>
  createRenameTransform(RenameTransformSchema.parse({ transform_name: 'r', transform_type: 'rename', filter_stream: ['*'], renames }));

describe('rename', () => {
  it('renames columns and keeps their order and the rest of the record', () => {
    const input = [record({ t: 1, temp: 2, x: 3 })];
    const { records, problems } = rename({ temp: 'temperature' }).apply(input);
    expect(Object.entries(records[0]!.fieldvalues)).toEqual([['t', 1], ['temperature', 2], ['x', 3]]);
    expect(records[0]!.asset).toBe('Press_1');
    expect(problems).toEqual([]);
    expect(input[0]!.fieldvalues).toEqual({ t: 1, temp: 2, x: 3 });
  });

  it('ignores names that a record does not have', () => {
    const input = record({ a: 1 });
    expect(rename({ missing: 'b' }).apply([input]).records[0]).toBe(input);
  });

  it('applies all renames at once, so two columns can swap', () => {
    expect(rename({ a: 'b', b: 'a' }).apply([record({ a: 1, b: 2 })]).records[0]!.fieldvalues).toEqual({ b: 1, a: 2 });
  });

  it('lets a renamed column replace an existing column of the new name, wherever it stands', () => {
    expect(rename({ a: 'b' }).apply([record({ a: 1, b: 2 })]).records[0]!.fieldvalues).toEqual({ b: 1 });
    expect(rename({ a: 'b' }).apply([record({ b: 2, a: 1 })]).records[0]!.fieldvalues).toEqual({ b: 1 });
  });

  it('keeps the order and names of the one-pass definition for any columns and renames', () => {
    /** The definition: assign in column order; a renamed column wins over one of its new name. */
    const reference = (fieldvalues: Record<string, FieldValue>, renames: Record<string, string>) => {
      if (!Object.keys(fieldvalues).some((key) => Object.hasOwn(renames, key))) return fieldvalues;
      const out: Record<string, FieldValue> = {};
      const taken = new Set<string>();
      for (const [key, value] of Object.entries(fieldvalues)) {
        const target = Object.hasOwn(renames, key) ? renames[key]! : undefined;
        if (target !== undefined) {
          out[target] = value;
          taken.add(target);
        } else if (!taken.has(key)) out[key] = value;
      }
      return out;
    };
    const name = fc.constantFrom('a', 'b', 'c', '1', '10', 'x y', 'é', '__proto__');
    const columns = fc.dictionary(name, fc.oneof(fc.integer(), fc.string(), fc.constant(null)), { maxKeys: 6 });
    fc.assert(
      fc.property(fc.dictionary(name, name, { minKeys: 1, maxKeys: 5, noNullPrototype: true }), fc.array(columns, { maxLength: 6 }), (config, rows) => {
        const { renames } = RenameTransformSchema.parse({ transform_name: 'r', transform_type: 'rename', filter_stream: ['*'], renames: config });
        const transform = rename(renames);
        const input = rows.map((fieldvalues) => record(fieldvalues));
        const before = input.map((r) => Reflect.ownKeys(r.fieldvalues));
        const output = transform.apply(input).records;
        output.forEach((out, i) => {
          const expected = reference(rows[i]!, renames);
          expect(Reflect.ownKeys(out.fieldvalues)).toEqual(Reflect.ownKeys(expected));
          expect(Object.getPrototypeOf(out.fieldvalues)).toBe(Object.getPrototypeOf(expected));
          expect({ ...out.fieldvalues }).toEqual({ ...expected });
        });
        expect(input.map((r) => Reflect.ownKeys(r.fieldvalues))).toEqual(before);
      }),
      { numRuns: 2000 },
    );
  });
});
