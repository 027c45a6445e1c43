import type { AgentRecord } from '../../../shared/records/record.js';
import { isoToEpochMicros } from '../time/iso-time.js';

/**
 * Earliest and latest record time (epoch µs) of `records[start, end)`, for the KPI history's
 * lookups of a payload whose records are not sorted by time; undefined when none has a readable time.
 */
export function recordSpan(records: readonly AgentRecord[], start = 0, end = records.length): { min: number; max: number } | undefined {
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (let index = start; index < end; index += 1) {
    const micros = isoToEpochMicros(records[index]!.timestamp);
    if (micros === undefined) continue;
    if (micros < min) min = micros;
    if (micros > max) max = micros;
  }
  return min <= max ? { min, max } : undefined;
}
