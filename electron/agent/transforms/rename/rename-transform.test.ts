import { describe, expect, it } from 'vitest';
import { RenameTransformSchema } from '../../../../shared/config/schema.js';
import { record } from '../test-records.js';
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
});
