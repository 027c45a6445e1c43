/**
 * The mqtt transmit's block (docs/mqtt.md): its required fields follow the product family's MQTT
 * transmit; the broker fields it shares with the receiver are in mqtt-schema.ts.
 */
import { z } from 'zod';
import { FilterStreamSchema, maxBufferMb } from '../../schema-parts.js';
import { brokerFields } from '../../mqtt-schema.js';

export const MQTT_MAX_MESSAGE_BYTES = 4_194_304;

/** A Sparkplug id is one topic level: no /, + or #. */
const sparkplugId = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[^/+#]+$/, 'a Sparkplug id is one topic level: no /, + or #');

export const MqttTransmitSchema = z
  .strictObject({
    transmit_name: z.string().min(1, 'transmit_name must not be empty'),
    transmit_type: z.literal('mqtt'),
    filter_stream: FilterStreamSchema,
    ...brokerFields,
    topic: z
      .string()
      .min(1, 'topic must not be empty')
      .optional()
      .describe('Topic to publish to; {asset} and {stream_type} are replaced per record, e.g. plant1/{asset}/{stream_type}. Not with sparkplug_b.'),
    payload_format: z
      .enum(['json', 'sparkplug_b'])
      .default('json')
      .describe('json (default): JSON messages on topic; sparkplug_b: a Sparkplug B edge node (births, DDATA per asset, NDEATH) under group_id/edge_node_id.'),
    group_id: sparkplugId.optional().describe('With sparkplug_b: the Sparkplug group id, e.g. Plant1.'),
    edge_node_id: sparkplugId.optional().describe('With sparkplug_b: the edge node id of this agent, e.g. tributary-line3.'),
    primary_host_id: sparkplugId
      .optional()
      .describe("With sparkplug_b: the primary host's id; data is published only while its STATE is online (the outbox keeps the records meanwhile)."),
    additional_fields: z.record(z.string(), z.json()).default({}).describe('Fields merged into every message, e.g. {"site": "Plant 1"}.'),
    qos: z.union([z.literal(0), z.literal(1)]).default(1).describe('1 (default): a record leaves the outbox only after the broker confirmed it (PUBACK); 0: once written to the connection.'),
    retain: z.boolean().default(false).describe('Ask the broker to keep the last message of each topic for new subscribers.'),
    message_format: z
      .enum(['record', 'array'])
      .default('record')
      .describe('record: one JSON object per record; array: a JSON array of up to max_request_records records per message (for high rates).'),
    timeout: z.number().int().min(1).max(3600).default(120).describe('Seconds to wait for the broker (connecting, PUBACK) before the connection counts as broken.'),
    poll_interval: z.number().int().min(1).max(86400).default(1).describe('Most seconds between two looks at the outbox.'),
    max_request_records: z.number().int().min(1).max(100_000).default(1000).describe('Records per array message, and messages waiting for PUBACK at once, at most (default 1000).'),
    max_request_size_bytes: z
      .number()
      .int()
      .min(1024)
      .max(MQTT_MAX_MESSAGE_BYTES)
      .default(262_144)
      .describe('Bytes per message at most (default 262144, at most 4194304); array messages are split to fit.'),
    max_buffer_mb: maxBufferMb,
  })
  .superRefine(sparkplugRequirements, { when: () => true })
  .describe('Publishes records to an MQTT broker, e.g. into a Unified Namespace.');

/** topic for JSON; group_id and edge_node_id for Sparkplug (checked even when other fields are wrong). */
function sparkplugRequirements(value: Record<string, unknown>, ctx: z.RefinementCtx): void {
  const required = value.payload_format === 'sparkplug_b' ? (['group_id', 'edge_node_id'] as const) : (['topic'] as const);
  for (const key of required) {
    if (value[key] === undefined) ctx.addIssue({ code: 'custom', path: [key], message: `${key} is required${key === 'topic' ? '' : ' with payload_format "sparkplug_b"'}` });
  }
}
