/** What the schema cannot say about a convert_timestamps transform. */
import type { z } from 'zod';
import type { ConvertTimestampsTransformSchema } from './schema.js';
import type { TransformRuleChecks } from '../descriptor.js';
import { type JsonPath, type Violation, error } from '../../violations.js';

type ConvertTimestamps = z.infer<typeof ConvertTimestampsTransformSchema>;

export function convertTimestampsViolations(
  t: ConvertTimestamps,
  base: JsonPath,
  checks: TransformRuleChecks,
): Violation[] {
  const out: Violation[] = [];
  if (t.field_names === undefined && t.field_name === undefined)
    out.push(error(base, 'Name the columns to convert in field_names.'));
  if (t.format !== undefined && t.unit !== undefined)
    out.push(error([...base, 'unit'], 'Use either format (text time stamps) or unit (epoch numbers), not both.'));
  if (t.timezone !== undefined && !checks.isValidTimeZone(t.timezone))
    out.push(error([...base, 'timezone'], checks.timeZoneProblem(t.timezone)));
  const bad = t.format === undefined ? undefined : checks.unknownStrptimeDirective(t.format);
  if (bad) out.push(error([...base, 'format'], `"${bad}" is not a time format directive. Use e.g. %Y-%m-%d %H:%M:%S.`));
  return out;
}
