/**
 * A record: one row of machine data on its way from a receiver to the transmits.
 * Times are ISO 8601 UTC with microseconds, e.g. 2026-01-05T06:00:00.000000Z.
 */
import { z } from 'zod';

export const FieldValueSchema = z.union([z.string(), z.number(), z.boolean(), z.null()]);
export type FieldValue = z.infer<typeof FieldValueSchema>;

export const AgentRecordSchema = z.object({
  asset: z.string(),
  stream_type: z.string(),
  /** When the data was generated: the first parse_timestamps/parse_dates field, else capturetime. */
  timestamp: z.string(),
  /** When the agent read it. */
  capturetime: z.string(),
  fieldvalues: z.record(z.string(), FieldValueSchema),
  /** Stable id (hash of asset, stream_type, source position): receivers downstream drop duplicates by it. */
  record_id: z.string(),
});
export type AgentRecord = z.infer<typeof AgentRecordSchema>;

/** ISO 8601 UTC with six fraction digits from epoch microseconds. */
export function isoMicros(epochMicros: bigint): string {
  const iso = new Date(Number(epochMicros / 1000n)).toISOString();
  const fraction = String(((epochMicros % 1_000_000n) + 1_000_000n) % 1_000_000n).padStart(6, '0');
  return `${iso.slice(0, 19)}.${fraction}Z`;
}
