/**
 * Semantic rules of the `mqtt` receiver and transmit: topic syntax, placeholders, connection
 * references, time stamp settings, and settings that do not fit together. Pure; reports at the
 * exact json_path to change. (Whether ca_file exists is checked by the agent when it saves.)
 */
import type { z } from 'zod';
import type { MqttReceiverSchema } from './receivers/mqtt/schema.js';
import type { MqttTransmitSchema } from './transmits/mqtt/schema.js';
import { publishTopicProblem, topicFilterProblem, topicFiltersOverlap } from './mqtt-topics.js';
import { type JsonPath, type Violation, error, warning, say } from './violations.js';

type MqttReceiver = z.infer<typeof MqttReceiverSchema>;
type MqttTransmit = z.infer<typeof MqttTransmitSchema>;

const TEMPLATE_PROMPT = '<fill in: ';
/** Columns every record already has outside its field values. */
const RECORD_COLUMNS = new Set(['timestamp', 'capturetime', 'record_id']);
/** Keys of a published message: additional_fields must not overwrite them. */
const MESSAGE_KEYS = new Set(['asset', 'stream_type', 'timestamp', 'capturetime', 'fieldvalues', 'record_id']);
const LOOPBACK = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

interface Checks {
  isValidTimeZone: (zone: string) => boolean;
  unknownStrptimeDirective: (format: string) => string | undefined;
}

type Broker = Pick<MqttTransmit, 'host' | 'username' | 'password' | 'tls' | 'ca_file' | 'reject_unauthorized' | 'mqtt_version'>;

/** Rules both directions share: login and TLS settings. */
function brokerViolations(broker: Broker, path: JsonPath): Violation[] {
  const out: Violation[] = [];
  const hasUser = broker.username !== undefined && broker.username !== '';
  const hasPassword = broker.password !== undefined && broker.password !== '';
  if (hasPassword && !hasUser && broker.mqtt_version === '3.1.1')
    out.push(error([...path, 'username'], say('mqtt.mqtt_sends_password_username', 'MQTT 3.1.1 sends a password only with a username: add username, or use mqtt_version "5".')));
  if (hasPassword && !broker.tls && !LOOPBACK.has(broker.host) && !broker.host.startsWith(TEMPLATE_PROMPT))
    out.push(warning([...path, 'tls'], say('mqtt.password_travels_unencrypted_without', 'The password travels unencrypted without tls: use tls (port 8883) unless the network is trusted.')));
  if (!broker.tls && broker.ca_file !== undefined) out.push(warning([...path, 'ca_file'], say('mqtt.ca_file_used_tls_true', 'ca_file is only used with tls: true.')));
  if (!broker.tls && !broker.reject_unauthorized) out.push(warning([...path, 'reject_unauthorized'], say('mqtt.reject_unauthorized_used_tls_true', 'reject_unauthorized is only used with tls: true.')));
  if (broker.tls && !broker.reject_unauthorized)
    out.push(warning([...path, 'reject_unauthorized'], say('mqtt.any_broker_certificate_accepted', 'Any broker certificate is accepted: anyone on the network path can pose as the broker. Give ca_file instead.')));
  return out;
}

export function mqttReceiverViolations(receiver: MqttReceiver, base: JsonPath, checks: Checks): Violation[] {
  const out: Violation[] = [];
  const names = new Map<string, number>();
  receiver.connections.forEach((connection, k) => {
    const path: JsonPath = [...base, 'connections', k];
    if (connection.connection_name !== undefined) {
      const first = names.get(connection.connection_name);
      if (first !== undefined) out.push(error([...path, 'connection_name'], say('mqtt.connection_name_already_used', 'The connection name "{connection_name}" is already used by connection {first}.', { connection_name: connection.connection_name, first: first + 1 })));
      else names.set(connection.connection_name, k);
    }
    out.push(...brokerViolations(connection, path));
  });
  const clientIds = new Map<string, number>();
  receiver.connections.forEach((connection, k) => {
    if (connection.client_id === undefined) return;
    const first = clientIds.get(`${connection.host}:${connection.port}/${connection.client_id}`);
    if (first !== undefined)
      out.push(error([...base, 'connections', k, 'client_id'], say('mqtt.connection_uses_same_client_id', 'Connection {first} uses the same client_id on the same broker: the broker would keep only one of them connected.', { first: first + 1 })));
    else clientIds.set(`${connection.host}:${connection.port}/${connection.client_id}`, k);
  });

  const connectionOf = (stream: MqttReceiver['streams'][number]) =>
    stream.connection === undefined ? 0 : receiver.connections.findIndex((c) => c.connection_name === stream.connection);
  receiver.streams.forEach((stream, j) => {
    const path: JsonPath = [...base, 'streams', j];
    if (stream.connection !== undefined && connectionOf(stream) < 0)
      out.push(error([...path, 'connection'], names.size > 0 ? say('mqtt.connection_unknown', 'No connection named "{connection}" in this receiver. Connections here: {names}.', { connection: stream.connection, names: [...names.keys()].join(', ') }) : say('mqtt.connection_unknown_none_named', 'No connection named "{connection}" in this receiver. Connections here: none named.', { connection: stream.connection })));
    if (!stream.topic.startsWith(TEMPLATE_PROMPT)) {
      const problem = topicFilterProblem(stream.topic) ?? (stream.payload_format === 'sparkplug_b' ? sparkplugTopicProblem(stream.topic) : undefined);
      if (problem) out.push(error([...path, 'topic'], say('mqtt.topic_filter_invalid', '{text}', { text: problem, topic: stream.topic })));
    }
    if (stream.payload_format === 'sparkplug_b' && stream.timestamp_field !== undefined)
      out.push(warning([...path, 'timestamp_field'], say('mqtt.sparkplug_b_metric_own_time', 'With sparkplug_b each metric\'s own time stamp (else the payload\'s) is the record\'s time: timestamp_field is not used.')));
    const columns: [string, string | undefined][] = [['topic_field', stream.topic_field], ...(stream.payload_format === 'value' ? [['value_field', stream.value_field] as [string, string]] : [])];
    for (const [key, column] of columns) {
      if (column !== undefined && RECORD_COLUMNS.has(column)) out.push(error([...path, key], say('mqtt.column_every_record_already', '"{column}" is a column every record already has. Choose another column name.', { column })));
    }
    if (stream.topic_field !== undefined && stream.payload_format === 'value' && stream.topic_field === stream.value_field)
      out.push(error([...path, 'topic_field'], say('mqtt.topic_field_value_field_name_same', 'topic_field and value_field name the same column.')));
    out.push(...timestampViolations(stream, path, checks));
  });

  // Streams of one broker whose filters can match the same topic each get its messages.
  receiver.streams.forEach((stream, j) => {
    for (let i = 0; i < j; i += 1) {
      const other = receiver.streams[i]!;
      if (connectionOf(other) !== connectionOf(stream) || topicFilterProblem(other.topic) || topicFilterProblem(stream.topic)) continue;
      if (topicFiltersOverlap(other.topic, stream.topic)) {
        out.push(warning([...base, 'streams', j, 'topic'], say('mqtt.filter_stream_match_same', 'This filter and the one of stream {i} ({topic}) can match the same topics: such messages are recorded in both streams.', { i: i + 1, topic: other.topic })));
        break;
      }
    }
  });
  return out;
}

function timestampViolations(stream: MqttReceiver['streams'][number], path: JsonPath, checks: Checks): Violation[] {
  const out: Violation[] = [];
  if (stream.timestamp_format !== undefined && stream.timestamp_unit !== undefined)
    out.push(error([...path, 'timestamp_unit'], say('mqtt.either_timestamp_format_text_time', 'Use either timestamp_format (text time stamps) or timestamp_unit (epoch numbers), not both.')));
  if (stream.timestamp_field === undefined) {
    for (const key of ['timestamp_format', 'timestamp_unit', 'timezone'] as const)
      if (stream[key] !== undefined) out.push(warning([...path, key], say('mqtt.used_timestamp_field_without_time', '{key} is only used with timestamp_field: without it the time of receipt is the record\'s time stamp.', { key })));
  }
  if (stream.timestamp_field !== undefined && stream.payload_format === 'value')
    out.push(error([...path, 'timestamp_field'], say('mqtt.plain_value_fields_payload_format', 'A plain value has no fields: with payload_format value the time of receipt is the time stamp. Remove timestamp_field.')));
  const bad = stream.timestamp_format === undefined ? undefined : checks.unknownStrptimeDirective(stream.timestamp_format);
  if (bad) out.push(error([...path, 'timestamp_format'], say('mqtt.time_format_directive', '"{bad}" is not a time format directive. Use e.g. %Y-%m-%d %H:%M:%S.', { bad })));
  if (stream.timezone !== undefined && !stream.timezone.startsWith(TEMPLATE_PROMPT) && !checks.isValidTimeZone(stream.timezone))
    out.push(error([...path, 'timezone'], say('mqtt.known_time_zone_iana', '"{timezone}" is not a known time zone. Use an IANA name such as Europe/Berlin or America/Chicago.', { timezone: stream.timezone })));
  return out;
}

export function mqttTransmitViolations(transmit: MqttTransmit, base: JsonPath): Violation[] {
  const out: Violation[] = [];
  if (transmit.topic !== undefined && !transmit.topic.startsWith(TEMPLATE_PROMPT) && transmit.payload_format === 'json') {
    const problem = publishTopicProblem(transmit.topic);
    if (problem) out.push(error([...base, 'topic'], say('mqtt.publish_topic_invalid', '{text}', { text: problem, topic: transmit.topic })));
  }
  out.push(...sparkplugTransmitViolations(transmit, base));
  for (const key of Object.keys(transmit.additional_fields)) {
    if (MESSAGE_KEYS.has(key)) out.push(error([...base, 'additional_fields', key], say('mqtt.field_every_message_already', '"{key}" is a field every message has already; choose another name.', { key })));
  }
  out.push(...brokerViolations(transmit, base));
  if (transmit.qos === 0)
    out.push(warning([...base, 'qos'], say('mqtt.qos_records_leave_outbox', 'With qos 0 records leave the outbox once written to the connection: those in flight when the connection breaks are lost. Use qos 1 to lose nothing.')));
  if (transmit.mqtt_version === '3.1.1')
    out.push(warning([...base, 'mqtt_version'], say('mqtt.mqtt_broker_cannot_say', 'With MQTT 3.1.1 a broker cannot say that a publish was refused (not authorized): it confirms it and drops it. Use "5" if the broker supports it.')));
  if (transmit.message_format === 'record' && transmit.max_request_records > 10_000)
    out.push(warning([...base, 'max_request_records'], say('mqtt.message_format_record_many_messages', 'With message_format record this many messages wait for the broker at once; brokers often allow far fewer in flight (Mosquitto: 20 by default, the rest queue).')));
  return out;
}

/** Settings that one payload_format uses and the other ignores. */
function sparkplugTransmitViolations(transmit: MqttTransmit, base: JsonPath): Violation[] {
  const out: Violation[] = [];
  if (transmit.payload_format === 'sparkplug_b') {
    if (transmit.topic !== undefined)
      out.push(warning([...base, 'topic'], say('mqtt.sparkplug_b_topics_spbv_group_id', 'With sparkplug_b the topics are spBv1.0/<group_id>/<message type>/<edge_node_id>/<asset>: topic is not used.')));
    if (Object.keys(transmit.additional_fields).length > 0)
      out.push(warning([...base, 'additional_fields'], say('mqtt.sparkplug_b_field_record_metric', 'With sparkplug_b each field of a record is a metric: additional_fields are not sent.')));
    if (transmit.message_format !== 'record')
      out.push(warning([...base, 'message_format'], say('mqtt.sparkplug_b_up_max_request_records_records', 'With sparkplug_b up to max_request_records records of an asset share one DDATA: message_format is not used.')));
    return out;
  }
  for (const key of ['group_id', 'edge_node_id', 'primary_host_id'] as const) {
    if (transmit[key] !== undefined) out.push(warning([...base, key], say('mqtt.used_payload_format_sparkplug_b', '{key} is only used with payload_format "sparkplug_b".', { key })));
  }
  return out;
}

/**
 * A Sparkplug stream's topic: spBv1.0/<group>/<type>/<edge node>[/<device>], + and # allowed; data
 * comes in NDATA and DDATA (births are read too, for aliases and types, but are not records).
 */
export function sparkplugTopicProblem(topic: string): string | undefined {
  const levels = topic.split('/');
  if (levels[0] !== 'spBv1.0') return 'A Sparkplug B topic starts with spBv1.0/, e.g. spBv1.0/Line3/DDATA/edge-9/Mixer_3.';
  if (levels.length === 2 && levels[1] === '#') return undefined;
  if (levels.length < 3 || levels.length > 5 || (levels.length < 4 && levels[levels.length - 1] !== '#'))
    return 'A Sparkplug B topic is spBv1.0/<group_id>/<message type>/<edge_node_id>[/<device_id>], e.g. spBv1.0/Line3/DDATA/edge-9/Mixer_3.';
  const type = levels[2]!;
  if (!['+', '#', 'DDATA', 'NDATA'].includes(type)) return `Records come from DDATA and NDATA messages, not ${type}: use DDATA, NDATA or +.`;
  return undefined;
}
