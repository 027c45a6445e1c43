/**
 * Schema pieces several component schemas share (schema.ts and the protocol schema files such as
 * mqtt-schema.ts import them from here, so that neither imports the other).
 */
import { z } from 'zod';

/** `asset:stream_type`, `*:stream_type`, `asset:*` or `*`. Syntax is checked in validate.ts. */
export const FilterStreamSchema = z
  .array(z.string())
  .describe('Streams this applies to: "asset:stream_type"; either half may be "*"; "*" alone matches every stream.');

export const streamIdentity = {
  asset: z.string().min(1, 'asset must not be empty').describe('Machine or asset name.'),
  stream_type: z.string().min(1, 'stream_type must not be empty').describe('Kind of data from this asset, e.g. cycle, alarms, process.'),
  expected_every_seconds: z
    .number()
    .int()
    .min(1)
    .max(2_592_000)
    .optional()
    .describe(
      'How often new data of this stream should arrive, in seconds (1..2592000), e.g. 900 for a file every 15 minutes. The console calls the stream late (amber) after 1.5 times this without a record and silent (red) after 6 times. Default: learned from the stream\'s own arrivals and history.',
    ),
};

export const maxBufferMb = z
  .number()
  .int()
  .min(1)
  .max(1_048_576)
  .default(2048)
  .describe('Disk the outbox of this transmit may use, in MiB (default 2048). At 80 % a warning marker appears; when full, receivers pause reading (nothing is dropped) until uploads catch up.');

/**
 * `format` of fields that hold an IANA time zone name in the generated JSON Schema: the console's
 * editor offers the zone names there (an annotation; validation checks zones in semantic-rules.ts).
 */
export const TIME_ZONE_FORMAT = 'iana-time-zone';
export const timeZoneName = (description: string) => z.string().min(1).describe(description).meta({ format: TIME_ZONE_FORMAT });
