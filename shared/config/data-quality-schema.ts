/**
 * The `data_quality` section: checks that watch each stream's values for data that is quietly wrong
 * (a frozen sensor, a value outside what the machine can do, a logger that stopped, a clock that is
 * off, columns that changed). Optional: without it the defaults of DEFAULT_QUALITY hold for every
 * stream. Several entries may select a stream; the later entry's settings win per check.
 */
import { z } from 'zod';
import { FilterStreamSchema } from './schema-parts.js';

const seconds = (what: string) => z.number().positive(`${what} must be more than 0 seconds`).max(31_536_000, `${what} must be at most a year (31536000 seconds)`);

export const StuckCheckSchema = z
  .strictObject({
    after_seconds: seconds('after_seconds').describe('A numeric field unchanged for at least this many seconds of record time (and min_records records) is stuck.'),
    min_records: z.number().int().min(2).max(1_000_000_000).describe('…and for at least this many records in a row (2 or more).'),
    fields: z.array(z.string().min(1)).min(1).max(1000).optional().describe('Only these fields; default every numeric field of the stream (each judged on its own).'),
  })
  .describe('A numeric field that keeps one value: a frozen sensor or a PLC tag that stopped updating.');

export const RangeLimitsSchema = z
  .tuple([z.number(), z.number()])
  .describe('[low, high]: a value below low or above high is out of range.');

export const RangeCheckSchema = z
  .record(z.string().min(1), RangeLimitsSchema)
  .describe('Per field, the values the machine can really produce: {"<field>": [low, high]}.');

export const GapCheckSchema = z
  .strictObject({
    after_seconds: seconds('after_seconds').describe('No record for this many seconds of wall time is a gap.'),
  })
  .describe('A source that stopped sending. Default: 10 times the stream\'s usual interval, at least 5 minutes. false: no gap check.');

export const ClockCheckSchema = z
  .strictObject({
    max_ahead_seconds: z.number().min(0).max(31_536_000).describe('A record time more than this many seconds ahead of this PC\'s clock is a clock problem (default 300).'),
    max_behind_seconds: z.number().min(0).max(31_536_000).optional().describe('…or more than this many seconds behind (default: not checked; old files and backfill are normal).'),
  })
  .describe('A machine clock that is off: record times ahead of (or behind) the edge PC\'s clock. false: no clock check.');

export const DataQualityEntrySchema = z
  .strictObject({
    filter_stream: FilterStreamSchema,
    stuck: StuckCheckSchema.optional(),
    range: RangeCheckSchema.optional(),
    gap: z.union([GapCheckSchema, z.literal(false)]).optional(),
    clock: z.union([ClockCheckSchema, z.literal(false)]).optional(),
    schema: z.boolean().optional().describe('Report when the set of columns differs from the stream\'s previous file or message (default true).'),
  })
  .describe('Data-quality checks for the streams filter_stream selects; a later entry\'s settings win per check.');

export const DataQualitySchema = z
  .array(DataQualityEntrySchema)
  .max(1000)
  .describe('Data-quality watch: stuck values, values out of range, gaps, clocks ahead, changed columns. Optional: without it, clock (5 min ahead), schema and gap (10x the usual interval, at least 5 min) hold for every stream.');

export type DataQualityEntry = z.infer<typeof DataQualityEntrySchema>;
export type DataQualityConfig = z.infer<typeof DataQualitySchema>;
