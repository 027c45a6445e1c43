import { describe, expect, it } from 'vitest';
import { FilterTransformSchema } from '../../../../shared/config/schema.js';
import type { FieldValue } from '../../../../shared/records/record.js';
import { record } from '../../../testing/records.js';
import { createFilterTransform } from './filter-transform.js';

type Condition = { op: string; value?: unknown; action?: 'keep' | 'drop' };
const filter = (condition: Condition) =>
  createFilterTransform(FilterTransformSchema.parse({ transform_name: 'f', transform_type: 'filter', filter_stream: ['*'], field_name: 'v', ...condition }));
/** Which of the given column values pass the filter (undefined = column missing). */
const passing = (condition: Condition, cells: (FieldValue | undefined)[]) =>
  filter(condition)
    .apply(cells.map((cell, i) => record(cell === undefined ? { id: i } : { id: i, v: cell })))
    .records.map((r) => cells[r.fieldvalues.id as number]);

const cells: (FieldValue | undefined)[] = [5, 10, '7', 'abc', 'b', null, true, undefined];

describe('filter', () => {
  it.each<[Condition, (FieldValue | undefined)[]]>([
    [{ op: 'eq', value: 5 }, [5]],
    [{ op: 'eq', value: '10' }, [10]],
    [{ op: 'eq', value: 'abc' }, ['abc']],
    [{ op: 'eq', value: null }, [null]],
    [{ op: 'eq', value: true }, [true]],
    [{ op: 'ne', value: 5 }, [10, '7', 'abc', 'b', null, true]],
    [{ op: 'lt', value: 8 }, [5, '7']],
    [{ op: 'lte', value: 10 }, [5, 10, '7']],
    [{ op: 'gt', value: 5 }, [10, '7']],
    [{ op: 'gte', value: 5 }, [5, 10, '7']],
    [{ op: 'gt', value: 'abc' }, ['b']],
    [{ op: 'lt', value: 'b' }, ['7', 'abc']],
    [{ op: 'in', value: [5, 'b', 7] }, [5, '7', 'b']],
    [{ op: 'nin', value: [5, 'b'] }, [10, '7', 'abc', null, true]],
    [{ op: 'contains', value: 'b' }, ['abc', 'b']],
    [{ op: 'contains', value: 0 }, [10]],
    [{ op: 'startswith', value: 'ab' }, ['abc']],
    [{ op: 'exists' }, [5, 10, '7', 'abc', 'b', true]],
  ])('keep %j', (condition, expected) => {
    expect(passing(condition, cells)).toEqual(expected);
  });

  it('compares numbers numerically, not as text', () => {
    expect(passing({ op: 'gt', value: 9 }, [10, 9, 100, '100'])).toEqual([10, 100, '100']);
    expect(passing({ op: 'gt', value: '9' }, ['10', '9a'])).toEqual(['9a']);
  });

  it('drop removes exactly the records that keep would pass, except a missing column is never dropped by a condition', () => {
    expect(passing({ op: 'eq', value: 5, action: 'drop' }, cells)).toEqual([10, '7', 'abc', 'b', null, true, undefined]);
    expect(passing({ op: 'exists', action: 'drop' }, cells)).toEqual([null, undefined]);
  });

  it('reports no problems and leaves the input alone', () => {
    const input = [record({ v: 1 }), record({ v: 2 })];
    const output = filter({ op: 'eq', value: 1 }).apply(input);
    expect(output.problems).toEqual([]);
    expect(output.records).toEqual([input[0]]);
    expect(input).toHaveLength(2);
  });
});
