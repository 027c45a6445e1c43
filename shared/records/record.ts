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

const MAX_EXACT = BigInt(Number.MAX_SAFE_INTEGER);
const TWO_DIGITS = Array.from({ length: 100 }, (_, i) => String(i).padStart(2, '0'));
let cachedDay = Number.NaN;
let cachedDate = '';

/** `YYYY-MM-DDTHH:MM:SS` of an epoch second (the date part is computed once per day). */
function secondText(second: number): string {
  const day = Math.floor(second / 86_400);
  if (day !== cachedDay) {
    cachedDate = new Date(day * 86_400_000).toISOString().slice(0, 10);
    cachedDay = day;
  }
  const time = second - day * 86_400;
  const hours = Math.floor(time / 3600);
  const minutes = Math.floor((time - hours * 3600) / 60);
  return `${cachedDate}T${TWO_DIGITS[hours]}:${TWO_DIGITS[minutes]}:${TWO_DIGITS[time - hours * 3600 - minutes * 60]}`;
}

/** ISO 8601 UTC with six fraction digits from epoch microseconds. */
export function isoMicros(epochMicros: bigint): string {
  if (epochMicros > MAX_EXACT || epochMicros < -MAX_EXACT) {
    const fraction = ((epochMicros % 1_000_000n) + 1_000_000n) % 1_000_000n;
    const iso = new Date(Number((epochMicros - fraction) / 1000n)).toISOString();
    return `${iso.slice(0, 19)}.${String(fraction).padStart(6, '0')}Z`;
  }
  // Years 1685–2255 (exact as doubles): no bigint arithmetic, and the date text is reused within a day.
  const micros = Number(epochMicros);
  let second = Math.floor(micros / 1_000_000);
  let fraction = micros - second * 1_000_000;
  if (fraction < 0) {
    second -= 1;
    fraction += 1_000_000;
  } else if (fraction >= 1_000_000) {
    second += 1;
    fraction -= 1_000_000;
  }
  const digits = String(fraction);
  return `${secondText(second)}.${'000000'.slice(digits.length)}${digits}Z`;
}
