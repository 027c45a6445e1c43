/**
 * What the MQTT receiver and transmit share (docs/mqtt.md): both reach a broker with the same
 * connection fields. Their blocks are in receivers/mqtt/schema.ts and transmits/mqtt/schema.ts.
 */
import { z } from 'zod';
import { streamIdentity } from './schema-parts.js';

/** `{asset}` and `{stream_type}` in a transmit's topic are replaced per record. */
export const TOPIC_PLACEHOLDERS = ['asset', 'stream_type'] as const;

export const MQTT_VERSIONS = ['5', '3.1.1'] as const;

/** How Tributary reaches a broker: the same fields for the receiver's connections and the transmit. */
export const brokerFields = {
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
