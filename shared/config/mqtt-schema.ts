/**
 * The MQTT receiver and transmit (docs/mqtt.md). Both reach a broker with the same connection
 * fields; the transmit's required fields follow the product family's MQTT transmit.
 */
import { z } from 'zod';
import { FilterStreamSchema, maxBufferMb, streamIdentity } from './schema-parts.js';

/** `{asset}` and `{stream_type}` in a transmit's topic are replaced per record. */
export const TOPIC_PLACEHOLDERS = ['asset', 'stream_type'] as const;

export const MQTT_VERSIONS = ['5', '3.1.1'] as const;

/** How Tributary reaches a broker: the same fields for the receiver's connections and the transmit. */
const brokerFields = {
  host: z.string().min(1, 'host must not be empty').describe('Broker name or IP address.'),
  port: z.number().int().min(1).max(65535).describe('Broker port: 1883 for plain MQTT, 8883 for MQTT over TLS.'),
  username: z.string().optional().describe('User name; leave out (with password) when the broker allows anonymous clients.'),
  password: z.string().optional().describe('Password; shown as ******** when read back.'),
  client_id: z
    .string()
    .min(1)
    .max(128)
    .optional()
    .describe('MQTT client id. Default: tributary-<this PC>-<component name>. Two clients with the same id push each other off the broker.'),
  tls: z.boolean().default(false).describe('Connect with TLS (MQTT over TLS, usually port 8883).'),
  ca_file: z
    .string()
    .min(1)
    .optional()
    .describe('With tls: PEM file of the certificate authority that signed the broker certificate, if it is not one this PC trusts already.'),
  reject_unauthorized: z
    .boolean()
    .default(true)
    .describe('With tls: refuse a broker whose certificate is not trusted or not made out to host (default true). false accepts any certificate: test brokers only.'),
  mqtt_version: z.enum(MQTT_VERSIONS).default('5').describe('MQTT protocol version: "5" (default) or "3.1.1" for older brokers.'),
  keepalive: z.number().int().min(5).max(3600).default(30).describe('Seconds between keep-alive pings; a broker silent for 1.5 times this counts as gone.'),
};

// ---------------------------------------------------------------- receiver

export const MqttConnectionSchema = z.strictObject({
  connection_name: z.string().min(1).optional().describe('Name that streams refer to; default: streams use the first connection.'),
  ...brokerFields,
  timeout: z.number().int().min(1).max(600).default(10).describe('Seconds to wait for the broker to accept the connection and the subscriptions.'),
});

export const MqttStreamSchema = z.strictObject({
  ...streamIdentity,
  topic: z
    .string()
    .min(1, 'topic must not be empty')
    .describe('Topic filter to subscribe to; + matches one level, # the rest (last), e.g. plant1/line1/press1/# .'),
  connection: z.string().min(1).optional().describe('connection_name of the broker this stream reads from; default: the first connection.'),
  payload_format: z
    .enum(['json', 'value', 'sparkplug_b'])
    .default('json')
    .describe(
      'json: a JSON object (scalars become columns, nested objects flattened with dots) or an array of objects (one record each); value: the whole message is one value; sparkplug_b: Sparkplug B metrics (topic spBv1.0/<group>/DDATA/<node>/<device>).',
    ),
  value_field: z.string().min(1).default('value').describe('With payload_format value: the column that receives the value (default "value").'),
  topic_field: z.string().min(1).optional().describe('Column that receives the topic of each message (useful with + and # filters).'),
  timestamp_field: z.string().min(1).optional().describe('Field (dots for nested objects) holding the time stamp; without it the time of receipt is used.'),
  timestamp_format: z.string().min(1).optional().describe("strptime format of a text time stamp, e.g. '%Y-%m-%d %H:%M:%S'; without format and unit ISO 8601 is read."),
  timestamp_unit: z.enum(['s', 'ms', 'us', 'ns']).optional().describe('Unit of an epoch-number time stamp: s, ms, us or ns; not together with timestamp_format.'),
  timezone: z.string().min(1).optional().describe('IANA time zone of time stamps without a zone, e.g. Europe/Berlin. Default UTC.'),
});

export const MqttReceiverSchema = z
  .strictObject({
    data_receiver_name: z.string().min(1, 'data_receiver_name must not be empty').describe('Unique name; progress is kept under it.'),
    protocol: z.literal('mqtt'),
    connections: z.array(MqttConnectionSchema).min(1, 'an mqtt receiver needs at least 1 connection'),
    streams: z.array(MqttStreamSchema).min(1, 'an mqtt receiver needs at least 1 stream'),
  })
  .describe('Subscribes to topics of an MQTT broker (persistent session, QoS 1).');

// ---------------------------------------------------------------- transmit

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
