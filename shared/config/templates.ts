/**
 * Configuration templates (GET /v1/config/templates[/<protocol>]). Values the engineer must fill in
 * hold prompt text starting with "<fill in: "; validation refuses a configuration that still has one.
 */
import { z } from 'zod';
import type { ConfigurationInput } from './schema.js';
import { prompt } from './template-parts.js';
import { RECEIVER_DESCRIPTORS, type ReceiverTemplate } from './receivers/index.js';
import type { ReceiverProtocol } from './receivers/derive.js';

export const TemplateSchema = z.object({
  name: z.string(),
  description: z.string(),
  configuration: z.record(z.string(), z.unknown()),
});
export type Template = z.infer<typeof TemplateSchema>;

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

type DataReceiverInput = NonNullable<ConfigurationInput['data_receiver']>[number];

/** The template of each protocol that has one, from the registry (receivers/<protocol>/template.ts). */
const TEMPLATES = new Map<string, ReceiverTemplate>(
  RECEIVER_DESCRIPTORS.flatMap((d) => (d.template ? [[d.protocol, d.template] as const] : [])),
);

export type TemplateProtocol = ReceiverProtocol;
/** Protocols with a template, in registry order. */
export const TEMPLATE_PROTOCOLS = [...TEMPLATES.keys()] as TemplateProtocol[];

/** One receiver of each protocol, ready to be inserted into `data_receiver`. */
export const RECEIVER_TEMPLATES = Object.fromEntries(
  [...TEMPLATES].map(([protocol, template]) => [protocol, template.receiver]),
) as Record<TemplateProtocol, DataReceiverInput>;

/** The streams the editor offers as snippets inside a protocol's streams (e.g. one per mqtt payload format). */
export function streamTemplates(protocol: unknown): Record<string, object> | undefined {
  return typeof protocol === 'string' ? TEMPLATES.get(protocol)?.streams : undefined;
}

const withReceiver = (template: ReceiverTemplate): ConfigurationInput => ({
  data_receiver: [structuredClone(template.receiver) as DataReceiverInput],
  transforms: structuredClone([...(template.transforms ?? [])]),
  data_transmit: [structuredClone(TRANSMIT_TEMPLATES[template.transmit ?? 'remotedatapost'])],
});

/** A complete configuration for one protocol, or undefined for an unknown protocol. */
export function templateFor(protocol: string): ConfigurationInput | undefined {
  const key = protocol.toLowerCase();
  if (key === 'basic') return { data_receiver: [], transforms: [], data_transmit: [] };
  const template = TEMPLATES.get(key);
  return template ? withReceiver(template) : undefined;
}

export function allTemplates(): Template[] {
  return [
    { name: 'Basic', description: 'An empty configuration: no receivers, transforms or transmits.', configuration: templateFor('basic')! },
    ...[...TEMPLATES].map(([protocol, template]) => ({
      name: template.title,
      description: template.description,
      configuration: templateFor(protocol)!,
    })),
  ] as Template[];
}
