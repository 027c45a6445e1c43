import { describe, expect, it } from 'vitest';
import { TransformSchema } from '../../../shared/config/schema.js';
import { createTransform } from './index.js';
import { record } from '../../testing/records.js';

const base = { transform_name: 't', filter_stream: ['*'] };

describe('createTransform', () => {
  it('creates the implemented transform types by transform_type', () => {
    const configs = [
      { ...base, transform_type: 'convert_timestamps', field_names: 'time' },
      { ...base, transform_type: 'rename', renames: { a: 'b' } },
      { ...base, transform_type: 'filter', field_name: 'a', op: 'exists' },
      { ...base, transform_type: 'checksum_record' },
    ];
    for (const config of configs) expect(createTransform(TransformSchema.parse(config))?.name).toBe('t');
    const renamed = createTransform(TransformSchema.parse(configs[1]))!.apply([record({ a: 1 })]);
    expect(renamed.records[0]!.fieldvalues).toEqual({ b: 1 });
  });

  it.each(['counter_assign_column', 'counter_event_string', 'pandas'])('gives undefined for %s', (type) => {
    expect(createTransform(TransformSchema.parse({ ...base, transform_type: type }))).toBeUndefined();
  });
});
