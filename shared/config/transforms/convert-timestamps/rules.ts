/** What the schema cannot say about a convert_timestamps transform. */
import type { z } from 'zod';
import type { ConvertTimestampsTransformSchema } from './schema.js';
import type { TransformRuleChecks } from '../descriptor.js';
import { type JsonPath, type Violation, error, say } from '../../violations.js';

type ConvertTimestamps = z.infer<typeof ConvertTimestampsTransformSchema>;

export function convertTimestampsViolations(
  t: ConvertTimestamps,
  base: JsonPath,
  checks: TransformRuleChecks,
): Violation[] {
  const out: Violation[] = [];
  if (t.field_names === undefined && t.field_name === undefined)
    out.push(error(base, say('convert_timestamps.name_columns_convert_field_names', 'Name the columns to convert in field_names.')));
  if (t.format !== undefined && t.unit !== undefined)
    out.push(error([...base, 'unit'], say('convert_timestamps.either_format_text_time', 'Use either format (text time stamps) or unit (epoch numbers), not both.')));
  if (t.timezone !== undefined && !checks.isValidTimeZone(t.timezone))
    out.push(error([...base, 'timezone'], checks.timeZoneProblem(t.timezone)));
  const bad = t.format === undefined ? undefined : checks.unknownStrptimeDirective(t.format);
  if (bad) out.push(error([...base, 'format'], say('convert_timestamps.time_format_directive', '"{bad}" is not a time format directive. Use e.g. %Y-%m-%d %H:%M:%S.', { bad })));
  return out;
}
