/**
 * Configuration templates (GET /v1/config/templates[/<protocol>]). Values the engineer must fill in
 * hold prompt text starting with "<fill in: "; validation refuses a configuration that still has one.
 */
import { z } from 'zod';
import type { ConfigurationInput } from './schema.js';
import { TEMPLATE_PROMPT_PREFIX } from './semantic-rules.js';

const prompt = (what: string) => `${TEMPLATE_PROMPT_PREFIX}${what}>`;

export const TemplateSchema = z.object({
  name: z.string(),
  description: z.string(),
  configuration: z.record(z.string(), z.unknown()),
});
export type Template = z.infer<typeof TemplateSchema>;

const csvParser = {
  parser_name: 'csv_parser',
  parser_type: 'spreadsheet' as const,
  filter_stream: ['*'],
  file_format: 'csv' as const,
  // A Python codec name: cp1252 for most German/French HMIs, shift_jis, gbk, utf-16 … (docs/compatibility.md).
  file_encoding: 'utf-8',
  options: {
    // No default zone: times in a machine's files are local times, and UTC would be silently wrong.
    localtz: prompt('time zone of the machine clock, e.g. Europe/Berlin'),
    parse: {
      separator: ',',
      header: 0,
      parse_timestamps: [{ field_name: prompt('column with the time stamp'), format: '%Y-%m-%d %H:%M:%S' }],
      bad_lines_action: 'warn' as const,
    },
  },
};

const stream = { asset: prompt('machine name'), stream_type: prompt('kind of data, e.g. cycle') };

const transmit = {
  transmit_name: 'cloud',
  transmit_type: 'remotedatapost' as const,
  filter_stream: ['*'],
  base_url: prompt('https://<tenant>.<domain>'),
  API_key: prompt('edge API key'),
  API_key_ID: prompt('edge API key id'),
  timeout: 120,
  poll_interval: 5,
  max_request_records: 3000,
};

const mqttTransmit = {
  transmit_name: 'unified_namespace',
  transmit_type: 'mqtt' as const,
  filter_stream: ['*'],
  host: prompt('broker name or IP address'),
  port: 8883,
  tls: true,
  username: prompt('user name'),
  password: prompt('password'),
  topic: `${prompt('enterprise/site/area, e.g. acme/plant1/line1')}/{asset}/{stream_type}`,
  qos: 1 as const,
  message_format: 'record' as const,
  additional_fields: {},
};

/** The mqtt transmit as a Sparkplug B edge node (docs/mqtt.md, Sparkplug B). */
const sparkplugTransmit = {
  transmit_name: 'sparkplug_host',
  transmit_type: 'mqtt' as const,
  filter_stream: ['*'],
  host: prompt('broker name or IP address'),
  port: 8883,
  tls: true,
  username: prompt('user name'),
  password: prompt('password'),
  payload_format: 'sparkplug_b' as const,
  group_id: prompt('Sparkplug group id, e.g. Plant1'),
  edge_node_id: prompt('edge node id of this PC, e.g. tributary-line3'),
  qos: 1 as const,
};

/** The streams of an mqtt receiver, one per payload format the editor offers as a snippet. */
export const MQTT_STREAM_TEMPLATES = {
  json: { ...stream, topic: prompt('topic filter, e.g. plant1/line1/press1/#'), payload_format: 'json' as const, topic_field: 'topic' },
  sparkplug_b: {
    asset: prompt('machine name (the Sparkplug device)'),
    stream_type: prompt('kind of data, e.g. state'),
    topic: prompt('Sparkplug topic, e.g. spBv1.0/Line3/DDATA/edge-9/Mixer_3 (+ and # allowed)'),
    payload_format: 'sparkplug_b' as const,
  },
};

/** One transmit of each type, ready to be inserted into `data_transmit`. */
export const TRANSMIT_TEMPLATES = {
  remotedatapost: transmit,
  mqtt: mqttTransmit,
  sparkplug_b: sparkplugTransmit,
} as const satisfies Record<string, NonNullable<ConfigurationInput['data_transmit']>[number]>;

export type TransmitTemplateType = keyof typeof TRANSMIT_TEMPLATES;
export const TRANSMIT_TEMPLATE_TYPES = Object.keys(TRANSMIT_TEMPLATES) as TransmitTemplateType[];

/**
 * One entry of `data_quality`, ready to be inserted: the example of a temperature that must
 * not freeze and a pressure the machine cannot exceed (docs/data-quality.md).
 */
export const DATA_QUALITY_TEMPLATE = {
  filter_stream: [prompt('asset:stream_type, or * for every stream')],
  stuck: { after_seconds: 600, min_records: 20 },
  range: { temperature: [-20, 150] },
  gap: { after_seconds: 900 },
  clock: { max_ahead_seconds: 300 },
  schema: true,
} as const satisfies NonNullable<ConfigurationInput['data_quality']>[number];

/** One receiver of each protocol, ready to be inserted into `data_receiver`. */
export const RECEIVER_TEMPLATES = {
  localfile: {
    data_receiver_name: 'local_files',
    protocol: 'localfile',
    poll_interval: 5,
    delete_completed: false,
    connections: [{ root_path: prompt('absolute path of the folder the machines write to') }],
    streams: [{ ...stream, file_filter: ['*.csv'] }],
    parsers: [csvParser],
  },
  smb: {
    data_receiver_name: 'network_share',
    protocol: 'smb',
    poll_interval: 10,
    delete_completed: false,
    connections: [
      {
        host: prompt('file server name or IP address'),
        port: 445,
        domain: '',
        username: prompt('user name'),
        password: prompt('password'),
        shared_folder: prompt('share name and optional sub-folder, e.g. machines/line1'),
      },
    ],
    streams: [{ ...stream, file_filter: ['*.csv'] }],
    parsers: [csvParser],
  },
  sql: {
    data_receiver_name: 'database',
    protocol: 'sql',
    poll_interval: 30,
    connections: [
      {
        host: prompt('database server name or IP address'),
        port: 5432,
        username: prompt('user name'),
        password: prompt('password'),
        database_type: 'postgresql',
        database_name: prompt('database name'),
        ssl: false,
      },
    ],
    streams: [
      {
        ...stream,
        query: 'SELECT * FROM machine_data WHERE id > :id ORDER BY id',
        state_fields: [{ column_name: 'id', data_type: 'integer', initial_value: 0 }],
      },
    ],
  },
  opcua: {
    data_receiver_name: 'opcua_server',
    protocol: 'opcua',
    poll_interval: 5,
    read_mode: 'subscription',
    sampling_interval_ms: 1000,
    queue_size: 10,
    history_backfill: false,
    connections: [
      {
        host: prompt('OPC UA server name or IP address'),
        port: 4840,
        timeout: 10,
        security_mode: 'SignAndEncrypt',
        security_policy: 'Basic256Sha256',
        // Empty: the first connection shows the server certificate's thumbprint in a marker; add it here once checked.
        trusted_server_certificates: [],
        trust_on_first_use: false,
      },
    ],
    streams: [
      {
        ...stream,
        opcua_tags: [{ name: prompt('node id, e.g. ns=2;s=Line1.Temperature'), exportname: prompt('column name, e.g. temperature') }],
      },
    ],
  },
  mqtt: {
    data_receiver_name: 'mqtt_broker',
    protocol: 'mqtt',
    connections: [
      {
        host: prompt('broker name or IP address'),
        port: 8883,
        tls: true,
        username: prompt('user name'),
        password: prompt('password'),
        mqtt_version: '5',
      },
    ],
    streams: [MQTT_STREAM_TEMPLATES.json],
  },
} as const satisfies Record<string, NonNullable<ConfigurationInput['data_receiver']>[number]>;

export type TemplateProtocol = keyof typeof RECEIVER_TEMPLATES;
export const TEMPLATE_PROTOCOLS = Object.keys(RECEIVER_TEMPLATES) as TemplateProtocol[];

const withReceiver = (protocol: TemplateProtocol): ConfigurationInput => ({
  data_receiver: [structuredClone(RECEIVER_TEMPLATES[protocol]) as NonNullable<ConfigurationInput['data_receiver']>[number]],
  transforms:
    protocol === 'localfile' || protocol === 'smb'
      ? [
          {
            transform_name: 'local_time_to_utc',
            transform_type: 'convert_timestamps',
            filter_stream: ['*'],
            field_names: [prompt('column with local time stamps')],
            timezone: prompt('time zone of the machine, e.g. Europe/Berlin'),
          },
        ]
      : [],
  // Machines' topics on a broker, republished as records into a Unified Namespace.
  data_transmit: [structuredClone(protocol === 'mqtt' ? mqttTransmit : transmit)],
});

/** A complete configuration for one protocol, or undefined for an unknown protocol. */
export function templateFor(protocol: string): ConfigurationInput | undefined {
  const key = protocol.toLowerCase();
  if (key === 'basic') return { data_receiver: [], transforms: [], data_transmit: [] };
  return (TEMPLATE_PROTOCOLS as string[]).includes(key) ? withReceiver(key as TemplateProtocol) : undefined;
}

export function allTemplates(): Template[] {
  return [
    { name: 'Basic', description: 'An empty configuration: no receivers, transforms or transmits.', configuration: templateFor('basic')! },
    { name: 'Localfile', description: 'CSV files that machines drop into a folder on this PC, uploaded to the cloud.', configuration: templateFor('localfile')! },
    { name: 'SMB', description: 'CSV files on a Windows network share, uploaded to the cloud.', configuration: templateFor('smb')! },
    { name: 'SQL', description: 'New rows of an MS SQL Server, PostgreSQL or MySQL table, read incrementally by id.', configuration: templateFor('sql')! },
    { name: 'OPCUA', description: 'Tags of an OPC UA server, read by subscription over an encrypted session (SignAndEncrypt).', configuration: templateFor('opcua')! },
    { name: 'MQTT', description: 'JSON or plain-value messages of machine topics on an MQTT broker (persistent session, QoS 1), published as records into a Unified Namespace topic tree.', configuration: templateFor('mqtt')! },
  ] as Template[];
}
