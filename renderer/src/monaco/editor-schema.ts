/**
 * The JSON Schema the configuration editor works with: the one generated from the shared zod schema
 * (so new fields, enum values and descriptions appear by themselves), plus what only an editor needs:
 * time zone names where the schema says a field holds one, and snippets for a whole receiver (from
 * the templates), transform or transmit (from each kind's schema). Its descriptions are in the
 * console's language at the time it is built (schema-descriptions.ts; setup.ts builds it again when
 * the language changes).
 */
import { text as catalogText } from '../i18n/language.js';
import { describedInConsoleLanguage } from './schema-descriptions.js';
import { supportedEncodingNames } from '../../../shared/config/encodings.js';
import { configurationJsonSchema, TIME_ZONE_FORMAT } from '../../../shared/config/schema.js';
import { TEMPLATE_PROMPT_PREFIX } from '../../../shared/config/semantic-rules.js';
import { DATA_QUALITY_TEMPLATE, RECEIVER_TEMPLATES, TRANSMIT_SNIPPETS, TRANSMIT_TEMPLATES, streamTemplates } from '../../../shared/config/templates.js';
import { PARSER_TEMPLATES } from '../../../shared/config/parsers/derive.js';

type Schema = Record<string, unknown>;

interface Snippet {
  label: string;
  description?: string;
  body: unknown;
  /** The protocol or type the snippet adds (not shown). */
  kind?: string;
}

/** Text for a snippet body: `$`, `}` and `\` are snippet syntax. */
const literal = (text: string) => text.replace(/[\\$}]/g, (c) => `\\${c}`);

/** A template value with its "<fill in: …>" prompts turned into tab stops. */
function withTabStops(value: unknown, counter: { next: number }): unknown {
  if (typeof value === 'string') {
    if (value.startsWith(TEMPLATE_PROMPT_PREFIX)) return `\${${counter.next++}:${literal(value.slice(TEMPLATE_PROMPT_PREFIX.length, -1))}}`;
    return literal(value);
  }
  if (Array.isArray(value)) return value.map((item) => withTabStops(item, counter));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withTabStops(v, counter)]));
  return value;
}

/** A minimal object for one kind (a oneOf branch): its required fields, constants filled in. */
function skeleton(branch: Schema): unknown {
  const properties = (branch.properties ?? {}) as Record<string, Schema>;
  const required = (branch.required ?? []) as string[];
  const counter = { next: 1 };
  const body: Record<string, unknown> = {};
  for (const key of required) {
    const property = properties[key] ?? {};
    if ('const' in property) body[key] = property.const;
    else if (key === 'filter_stream') body[key] = ['*'];
    else if (property.type === 'string') body[key] = `\${${counter.next++}:${key}}`;
    else if (property.type === 'integer' || property.type === 'number') body[key] = typeof property.default === 'number' ? property.default : 0;
    else if (property.type === 'boolean') body[key] = false;
    else if (property.type === 'array') body[key] = [];
    else body[key] = {};
  }
  return body;
}

function branchSnippets(items: Schema | undefined, discriminator: string, noun: string): Snippet[] {
  const branches = (items?.oneOf ?? items?.anyOf ?? []) as Schema[];
  return branches.flatMap((branch) => {
    const kind = ((branch.properties ?? {}) as Record<string, Schema>)[discriminator]?.const;
    const description = typeof branch.description === 'string' ? branch.description : undefined;
    // Kinds kept only to read old configurations are not offered for new ones.
    if (typeof kind !== 'string' || description?.startsWith('Legacy')) return [];
    return [{ label: catalogText('editorSnippets.kind', { kind, noun }), description, body: skeleton(branch), kind }];
  });
}

/** Adds the zone names (as examples: completion offers them, validation does not restrict to them). */
function annotateTimeZones(node: unknown, zones: readonly string[]): void {
  if (Array.isArray(node)) return node.forEach((item) => annotateTimeZones(item, zones));
  if (node === null || typeof node !== 'object') return;
  const schema = node as Schema;
  if (schema.format === TIME_ZONE_FORMAT) schema.examples = zones;
  for (const value of Object.values(schema)) annotateTimeZones(value, zones);
}

/** The encoding fields (file_encoding, and a parser's pandas-named encoding): completion offers the codec names. */
function annotateEncodings(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(annotateEncodings);
  if (node === null || typeof node !== 'object') return;
  const properties = (node as Schema).properties as Record<string, Schema> | undefined;
  for (const key of ['file_encoding', 'encoding'])
    if (properties?.[key]?.type === 'string') properties[key].examples = supportedEncodingNames();
  for (const value of Object.values(node)) annotateEncodings(value);
}

/** The JSON type a branch of a union stands for, as Monaco's completion reads it. */
function typesOf(branch: Schema): string[] {
  if (typeof branch.type === 'string') return [branch.type];
  if (Array.isArray(branch.type)) return branch.type as string[];
  if (branch.properties) return ['object'];
  if (branch.items) return ['array'];
  if ('const' in branch) return [branch.const === null ? 'null' : typeof branch.const];
  return [...((branch.anyOf ?? branch.oneOf ?? []) as Schema[])].flatMap(typesOf);
}

/**
 * A key completed in the editor becomes `"key": ` with a placeholder for its value: Monaco does that
 * from the property's `type`, and a union (zod's anyOf/oneOf) has none, so the key came alone. The
 * types of its branches are written beside it (validation is ours, so this changes nothing else).
 */
function annotateUnionTypes(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(annotateUnionTypes);
  if (node === null || typeof node !== 'object') return;
  const schema = node as Schema;
  const branches = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (branches && schema.type === undefined && !('const' in schema) && !schema.enum) {
    const types = [...new Set(branches.flatMap(typesOf))];
    // Null last: a placeholder for the value, not for its absence.
    types.sort((a, b) => Number(a === 'null') - Number(b === 'null'));
    if (types.length > 0) schema.type = types.length === 1 ? types[0] : types;
  }
  for (const value of Object.values(schema)) annotateUnionTypes(value);
}

/**
 * Every kind at the discriminator of a union (protocol, parser_type, transmit_type, transform_type):
 * Monaco offers the values of the branches the object under the cursor matches best, so an existing
 * csv parser was offered csv and spreadsheet only (issue 56). Each branch lists all kinds as `enum`
 * beside its `const`; validation is ours, so this changes completion only.
 */
function offerAllKinds(items: Schema | undefined, discriminator: string): void {
  const branches = (items?.oneOf ?? items?.anyOf ?? []) as Schema[];
  const kindOf = (branch: Schema) => ((branch.properties ?? {}) as Record<string, Schema>)[discriminator];
  // Kinds kept only to read old configurations are not offered for new ones.
  const offered = branches.filter((b) => !(typeof b.description === 'string' && b.description.startsWith('Legacy')));
  const kinds = [...new Set(offered.map((b) => kindOf(b)?.const).filter((k): k is string => typeof k === 'string'))];
  if (kinds.length < 2) return;
  for (const branch of branches) {
    const property = kindOf(branch);
    if (property) property.enum = kinds;
  }
}

/** The kind of a union branch (its discriminator's const). */
const kindOfBranch = (branch: Schema, discriminator: string) => ((branch.properties ?? {}) as Record<string, Schema>)[discriminator]?.const;

/** A parser of each type: its template where it has one, else its required fields (csv, spreadsheet). */
function parserSnippets(parsers: Schema): Snippet[] {
  const branches = (parsers.oneOf ?? parsers.anyOf ?? [parsers]) as Schema[];
  return branches.flatMap((branch) => {
    const type = kindOfBranch(branch, 'parser_type');
    if (typeof type !== 'string') return [];
    const template = PARSER_TEMPLATES[type];
    const body = template ? withTabStops(template, { next: 1 }) : { ...(skeleton(branch) as object), parser_type: type, filter_stream: ['*'] };
    return [{ label: catalogText('editorSnippets.parser', { type }), description: catalogText(template ? 'editorSnippets.parserFromTemplate' : 'editorSnippets.parserFields', { type }), body }];
  });
}

export function editorSchema(zones: readonly string[]): Schema {
  const schema = configurationJsonSchema();
  annotateUnionTypes(schema);
  annotateTimeZones(schema, zones);
  annotateEncodings(schema);
  const properties = schema.properties as Record<string, Schema>;
  const receivers = properties.data_receiver?.items as Schema | undefined;
  if (receivers)
    receivers.defaultSnippets = Object.entries(RECEIVER_TEMPLATES).map(([protocol, template]) => ({
      label: catalogText('editorSnippets.receiver', { protocol }),
      description: catalogText('editorSnippets.receiverFromTemplate', { protocol }),
      body: withTabStops(template, { next: 1 }),
    }));
  // Each file receiver's parsers: one snippet per parser type with a template (parsers/<type>/index.ts).
  for (const branch of ((receivers?.oneOf ?? receivers?.anyOf ?? []) as Schema[])) {
    const branchProperties = (branch.properties ?? {}) as Record<string, Schema>;
    // A protocol's stream templates (an mqtt receiver's: a JSON and a Sparkplug B stream).
    const protocol = branchProperties.protocol?.const;
    const streams = streamTemplates(protocol);
    const streamItems = streams ? (branchProperties.streams?.items as Schema | undefined) : undefined;
    if (streams && streamItems)
      streamItems.defaultSnippets = Object.entries(streams).map(([format, template]) => ({
        label: catalogText('editorSnippets.stream', { format }),
        description: catalogText('editorSnippets.streamFromTemplate', { protocol: String(protocol), format }),
        body: withTabStops(template, { next: 1 }),
      }));
    const parsers = branchProperties.parsers?.items as Schema | undefined;
    if (parsers) {
      parsers.defaultSnippets = parserSnippets(parsers);
      offerAllKinds(parsers, 'parser_type');
    }
  }
  offerAllKinds(receivers, 'protocol');
  // A receiver of each protocol: its template, or (a protocol without one) its required fields.
  if (receivers) {
    const templated = new Set(Object.keys(RECEIVER_TEMPLATES));
    const rest = branchSnippets(receivers, 'protocol', 'receiver').filter((snippet) => !templated.has(String(snippet.kind)));
    receivers.defaultSnippets = [...(receivers.defaultSnippets as Snippet[]), ...rest];
  }
  const transforms = properties.transforms?.items as Schema | undefined;
  if (transforms) transforms.defaultSnippets = branchSnippets(transforms, 'transform_type', 'transform');
  offerAllKinds(transforms, 'transform_type');
  offerAllKinds(properties.data_transmit?.items as Schema | undefined, 'transmit_type');
  const transmits = properties.data_transmit?.items as Schema | undefined;
  if (transmits)
    transmits.defaultSnippets = [
      ...branchSnippets(transmits, 'transmit_type', 'transmit'),
      ...TRANSMIT_SNIPPETS.map(({ name, says }) => ({
        label: catalogText('editorSnippets.transmit', { name }),
        description: catalogText('editorSnippets.transmitFromTemplate', { says }),
        body: withTabStops(TRANSMIT_TEMPLATES[name], { next: 1 }),
      })),
    ];
  const quality = ((properties.data_quality?.anyOf as Schema[] | undefined)?.find((s) => s.type === 'array') ?? properties.data_quality)?.items as Schema | undefined;
  if (quality)
    quality.defaultSnippets = [
      { label: catalogText('editorSnippets.quality'), description: catalogText('editorSnippets.qualityDescription'), body: withTabStops(DATA_QUALITY_TEMPLATE, { next: 1 }) },
    ];
  // Last: the snippets of a kind take its description, and the legacy kinds are told by their English.
  return describedInConsoleLanguage(schema);
}
