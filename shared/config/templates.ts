/**
 * Configuration templates (GET /v1/config/templates[/<protocol>]). Values the engineer must fill in
 * hold prompt text starting with "<fill in: "; validation refuses a configuration that still has one.
 */
import { z } from 'zod';
import type { ConfigurationInput } from './schema.js';
import { prompt } from './template-parts.js';
import { RECEIVER_DESCRIPTORS, type ReceiverTemplate } from './receivers/index.js';
import type { ReceiverProtocol } from './receivers/derive.js';
import { TRANSMIT_TEMPLATE_LIST, type TransmitTemplateName } from './transmits/derive.js';

export const TemplateSchema = z.object({
  name: z.string(),
  description: z.string(),
  configuration: z.record(z.string(), z.unknown()),
});
export type Template = z.infer<typeof TemplateSchema>;

type TransmitInput = NonNullable<ConfigurationInput['data_transmit']>[number];

/** One transmit of each template (a type may have several), from the registry (transmits/<type>/template.ts). */
export const TRANSMIT_TEMPLATES = Object.fromEntries(
  TRANSMIT_TEMPLATE_LIST.map((template) => [template.name, template.transmit]),
) as Record<TransmitTemplateType, TransmitInput>;

export type TransmitTemplateType = TransmitTemplateName;
export const TRANSMIT_TEMPLATE_TYPES = Object.keys(TRANSMIT_TEMPLATES) as TransmitTemplateType[];
/** What a complete configuration sends with unless its receiver's template says: the registry's first. */
const DEFAULT_TRANSMIT = TRANSMIT_TEMPLATE_TYPES[0]!;

/** The templates the editor offers as transmit snippets, with the words that describe each. */
export const TRANSMIT_SNIPPETS = TRANSMIT_TEMPLATE_LIST.flatMap((t) => (t.snippet ? [{ name: t.name, says: t.snippet }] : []));

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
  data_transmit: [structuredClone(TRANSMIT_TEMPLATES[(template.transmit ?? DEFAULT_TRANSMIT) as TransmitTemplateType])],
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
