/** `rename`: renames columns; names not present in a record are ignored. */
import type { z } from 'zod';
import type { RenameTransformSchema } from '../../../../shared/config/schema.js';
import type { FieldValue } from '../../../../shared/records/record.js';
import type { RecordTransform } from '../transform.js';

export type RenameConfig = z.infer<typeof RenameTransformSchema>;

/**
 * Creates the transform. All renames apply at once (a → b and b → a swap the two columns) and the
 * column order is kept; a renamed column replaces an existing column of the new name.
 */
export function createRenameTransform(config: RenameConfig): RecordTransform {
  const renames = new Map(Object.entries(config.renames));
  return {
    name: config.transform_name,
    apply(records) {
      const out = records.map((record) => {
        if (!Object.keys(record.fieldvalues).some((key) => renames.has(key))) return record;
        const fieldvalues: Record<string, FieldValue> = {};
        const renamedTargets = new Set<string>();
        for (const [key, value] of Object.entries(record.fieldvalues)) {
          const target = renames.get(key);
          if (target !== undefined) {
            fieldvalues[target] = value;
            renamedTargets.add(target);
          } else if (!renamedTargets.has(key)) {
            // Unless a renamed column already took this name: the rename wins, wherever it stands.
            fieldvalues[key] = value;
          }
        }
        return { ...record, fieldvalues };
      });
      return { records: out, problems: [] };
    },
  };
}
