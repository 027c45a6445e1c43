/**
 * What derives from the transmit registry (index.ts). Kept apart from the list so that the list is
 * the only thing a new transmit type edits (and the only thing a test swaps to add a fixture type).
 */
import type { z } from 'zod';
import type { SecretTarget } from '../secret-fields.js';
import type { TransmitDescriptor } from './descriptor.js';
import { TRANSMIT_DESCRIPTORS } from './index.js';

type Descriptors = typeof TRANSMIT_DESCRIPTORS;
// A generic mapped type keeps the tuple (a mapped type over a concrete tuple would not).
type SchemasOf<T> = { -readonly [K in keyof T]: T[K] extends { schema: infer S } ? S : never };
type Schemas = SchemasOf<Descriptors>;
type AnyDescriptor = TransmitDescriptor<z.ZodObject>;
const descriptors = TRANSMIT_DESCRIPTORS as readonly AnyDescriptor[];

/** A transmit_type value some transmit has. */
export type TransmitType = z.infer<Schemas[number]>['transmit_type'];

/** The transmits' schemas in registry order, typed as the tuple z.discriminatedUnion needs. */
export const TRANSMIT_SCHEMAS = TRANSMIT_DESCRIPTORS.map((d) => d.schema) as unknown as Schemas;

/** Every transmit_type value, in registry order. */
export const TRANSMIT_TYPES = TRANSMIT_DESCRIPTORS.map((d) => d.type) as readonly TransmitType[];

/** The descriptor of a transmit_type value, or undefined for a type no transmit has. */
export function transmitDescriptorOf(type: string): AnyDescriptor | undefined {
  return descriptors.find((d) => d.type === type);
}

/** The rules of the document as a whole that transmit types add (remotedatapost: sight_machine_cloud). */
type TransmitDocument = Parameters<NonNullable<AnyDescriptor['documentRules']>>[0];

export function transmitDocumentViolations(document: TransmitDocument, partial: boolean) {
  return descriptors.flatMap((d) => d.documentRules?.(document, { partial }) ?? []);
}

type TemplatesOf<D> = D extends { templates?: infer T } ? keyof NonNullable<T> : never;
/** The name of a transmit template (a type may have several: mqtt and sparkplug_b). */
export type TransmitTemplateName = Extract<TemplatesOf<Descriptors[number]>, string>;

/** Every transmit template by name, in registry order. */
export const TRANSMIT_TEMPLATE_LIST = descriptors.flatMap((d) =>
  Object.entries(d.templates ?? {}).map(([name, template]) => ({ name: name as TransmitTemplateName, ...template })),
);

/** The type a transmit without transmit_type has (the one whose schema defaults it). */
const DEFAULT_TYPE = descriptors.find((d) => d.schema.shape.transmit_type?.safeParse(undefined).success)?.type;

/** The secrets transmits hold, each with what it authenticates to, for transmits of its type only. */
export const TRANSMIT_SECRETS: readonly SecretTarget[] = descriptors.flatMap((d) =>
  (d.secrets ?? []).map((row) => ({
    where: ['data_transmit', '*'],
    ...row,
    when: (holder: Record<string, unknown>) => (holder.transmit_type ?? DEFAULT_TYPE) === d.type,
  })),
);
/** The secrets of top-level blocks transmit types read (sight_machine_cloud's key). */
export const TRANSMIT_BLOCK_SECRETS: readonly SecretTarget[] = descriptors.flatMap((d) => d.blockSecrets ?? []);

const or = (items: readonly string[]) =>
  items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;

/** "sends with remotedatapost (RDP2) or mqtt, or writes csv files": what the transmits do, as a sentence says it. */
export function transmitAbilities(): string {
  const verbs = [...new Set(descriptors.map((d) => d.does.verb))];
  const what = (verb: string) => descriptors.filter((d) => d.does.verb === verb).map((d) => d.does.what);
  return verbs.map((verb) => `${verb} ${or(what(verb))}`).join(', or ');
}
