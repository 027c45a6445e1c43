/**
 * GET /v1/history: the data flow per minute over the last hours (records in per stream, records out
 * and backlog per transmit), kept by the agent for 24 hours across restarts.
 */
import { z } from 'zod';

/** The longest history kept and served: 24 hours of minutes. */
export const HISTORY_MINUTES = 1440;

const minute = z.string().describe('Start of the minute, ISO 8601 UTC (e.g. 2026-11-24T14:03:00.000Z).');

export const StreamHistorySchema = z.object({
  data_receiver: z.string(),
  asset: z.string(),
  stream_type: z.string(),
  points: z
    .array(z.object({ minute, records_in: z.number().int().describe('Records of this stream read in that minute.') }))
    .describe('Oldest first; minutes in which nothing was read are left out (0).'),
});

export const TransmitHistorySchema = z.object({
  transmit: z.string(),
  points: z
    .array(
      z.object({
        minute,
        records_out: z.number().int().describe('Records delivered in that minute.'),
        backlog_records: z.number().int().describe('Records waiting in the outbox at the end of that minute (for the current minute: now).'),
      }),
    )
    .describe('Oldest first, one per minute in which the agent ran.'),
});

export const QualityHistorySchema = z.object({
  asset: z.string(),
  stream_type: z.string(),
  check: z.enum(['stuck', 'range', 'gap', 'clock', 'schema']),
  field: z.string().nullable(),
  since: z.string().describe('When the finding opened (ISO 8601 UTC).'),
  until: z.string().nullable().describe('When it closed; null while it is open.'),
  detail: z.string().describe('In words, as the finding last read.'),
});

export const FlowHistorySchema = z.object({
  start: z.string().describe('The first minute asked for (ISO 8601 UTC).'),
  end: z.string().describe('The current minute, included with what it has so far (ISO 8601 UTC).'),
  streams: z.array(StreamHistorySchema),
  transmits: z.array(TransmitHistorySchema),
  quality: z.array(QualityHistorySchema).describe('Findings of the data-quality watch open at some time in these minutes, oldest first (docs/data-quality.md).'),
});
export type FlowHistory = z.infer<typeof FlowHistorySchema>;

const minutesMessage = `minutes must be a whole number from 1 to ${HISTORY_MINUTES}`;
export const historyQuery = {
  minutes: {
    schema: z.coerce.number({ error: minutesMessage }).int({ error: minutesMessage }).min(1, { error: minutesMessage }).max(HISTORY_MINUTES, { error: minutesMessage }).default(60),
    description: `How many of the latest minutes (1..${HISTORY_MINUTES}, default 60).`,
  },
};
