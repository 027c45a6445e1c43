/** `rename`: renames columns; names not present in a record are ignored. */
import type { z } from 'zod';
import type { RenameTransformSchema } from '../../../../shared/config/schema.js';
import { type FieldValue, withFieldvalues } from '../../../../shared/records/record.js';
import type { RecordTransform } from '../../components/contract.js';

export type RenameConfig = z.infer<typeof RenameTransformSchema>;

/**
 * What to do with each column of one record shape (its column names in order): the name it gets,
 * or null when a renamed column before it already took its name (the rename wins).
 */
interface ShapePlan {
  keys: string[];
  names: (string | null)[];
  /**
   * An object with the output's own keys in their order (values undefined), cloned per record; none
   * when a column is named __proto__ (assigning that sets the prototype first, and the order then
   * depends on the values).
   */
  template: Record<string, FieldValue> | undefined;
}

const isOwnEnumerable = (object: object, key: string) => Object.prototype.propertyIsEnumerable.call(object, key);

/**
 * Creates the transform. All renames apply at once (a → b and b → a swap the two columns) and the
 * column order is kept; a renamed column replaces an existing column of the new name.
 */
export function createRenameTransform(config: RenameConfig): RecordTransform {
  const renames = new Map(Object.entries(config.renames));
  const sources = [...renames.keys()];
  const targets = new Set(renames.values());
  // Records of a stream usually share their columns: the plan of the last shape is reused.
  let last: ShapePlan | undefined;

  function planFor(keys: string[]): ShapePlan {
    if (last !== undefined && last.keys.length === keys.length) {
      let same = true;
      for (let i = 0; i < keys.length; i += 1) {
        if (last.keys[i] !== keys[i]) {
          same = false;
          break;
        }
      }
      if (same) return last;
    }
    const renamedTargets = new Set<string>();
    const names = keys.map((key) => {
      const target = renames.get(key);
      if (target !== undefined) {
        renamedTargets.add(target);
        return target;
      }
      // Unless a renamed column already took this name: the rename wins, wherever it stands.
      return targets.has(key) && renamedTargets.has(key) ? null : key;
    });
    let template: Record<string, FieldValue> | undefined;
    if (!names.includes('__proto__')) {
      template = {};
      for (const name of names) if (name !== null) template[name] = undefined as unknown as FieldValue;
    }
    last = { keys, names, template };
    return last;
  }

  /** Whether the record has a column to rename (an own enumerable one, as Object.keys lists). */
  function hasSource(fieldvalues: Record<string, FieldValue>): boolean {
    if (sources.length <= 8) {
      for (const source of sources) if (isOwnEnumerable(fieldvalues, source)) return true;
      return false;
    }
    return Object.keys(fieldvalues).some((key) => renames.has(key));
  }

  return {
    name: config.transform_name,
    apply(records) {
      const out = new Array<(typeof records)[number]>(records.length);
      for (let r = 0; r < records.length; r += 1) {
        const record = records[r]!;
        const values = record.fieldvalues;
        if (!hasSource(values)) {
          out[r] = record;
          continue;
        }
        const { keys, names, template } = planFor(Object.keys(values));
        // Every name of the template is assigned below, in column order as the plan was made.
        const fieldvalues: Record<string, FieldValue> = template ? { ...template } : {};
        for (let i = 0; i < keys.length; i += 1) {
          const name = names[i]!;
          if (name !== null) fieldvalues[name] = values[keys[i]!]!;
        }
        out[r] = withFieldvalues(record, fieldvalues);
      }
      return { records: out, problems: [] };
    },
  };
}
