/**
 * POST /v1/config/preview: what a receiver of an unsaved configuration would read, before it is
 * saved. Files: the first rows of the first file each stream matches, through its parser and the
 * transforms; SQL: the query's first rows with the bound state; OPC UA: the tags' current values;
 * MQTT: what arrives within a few seconds of listening (docs/decisions/0046). Nothing is committed
 * and no progress moves.
 */
import type { AgentMessage } from '../config/message.js';
import { MessageCodeSchema, MessageParamsSchema } from '../config/message-schema.js';
import { z } from 'zod';
import type { FieldValue } from '../records/record.js';

const FieldValueSchema: z.ZodType<FieldValue> = z.union([z.string(), z.number(), z.boolean(), z.null()]);

export const PREVIEW_MAX_ROWS = 100;

export const PreviewRequestSchema = z.strictObject({
  configuration: z
    .record(z.string(), z.unknown())
    .optional()
    .describe('The configuration as the editor holds it (unsaved; needs the admin role). ******** for a secret means the saved value, as on save. Without it: the saved configuration (operator role).'),
  receiver: z.string().min(1).optional().describe('data_receiver_name of the receiver to preview; default: the first receiver.'),
  rows: z.number().int().min(1).max(PREVIEW_MAX_ROWS).default(10).describe(`Records per stream at most (1..${PREVIEW_MAX_ROWS}, default 10).`),
});
export type PreviewRequest = z.input<typeof PreviewRequestSchema>;

export const PreviewProblemSchema = z.object({
  level: z.enum(['error', 'warning']),
  message: z.string().describe('What kept rows from being read, or what is wrong with some of them, in plain words.'),
  code: MessageCodeSchema.optional().describe('Stable code of the message (issue 57), when the agent says it with one.'),
  params: MessageParamsSchema.optional(),
});
export type PreviewProblem = z.infer<typeof PreviewProblemSchema>;

/** A preview problem from a message with its code: the console writes it in its language. */
export const previewProblem = (level: PreviewProblem['level'], said: AgentMessage): PreviewProblem => ({ level, message: said.text, code: said.code, params: said.params as PreviewProblem['params'] });

export const PreviewRecordSchema = z.object({
  timestamp: z.string().describe('The record time stamp, ISO 8601 UTC with microseconds, as it would be sent.'),
  fieldvalues: z.record(z.string(), FieldValueSchema),
});

export const StreamPreviewSchema = z.object({
  asset: z.string(),
  stream_type: z.string(),
  source: z.string().nullable().describe('What was read: the file, the query with its bound state, the server, or the broker and topic listened to; null when there was nothing to read.'),
  columns: z.array(z.string()).describe('Column names in the order of the records.'),
  records: z.array(PreviewRecordSchema).describe('The first records, after the transforms that select the stream.'),
  problems: z.array(PreviewProblemSchema),
});
export type StreamPreview = z.infer<typeof StreamPreviewSchema>;

export const PreviewResultSchema = z.object({
  receiver: z.string(),
  protocol: z.string(),
  streams: z.array(StreamPreviewSchema),
});
export type PreviewResult = z.infer<typeof PreviewResultSchema>;
