/**
 * Validation of a configuration document: the zod schema (structure) plus the semantic rules that a
 * schema cannot express (unique names, references, stream filters, risky settings). Pure: the same
 * function runs in the agent (authoritative, on save) and in the console (live, as you type).
 */
import { z } from 'zod';
import { ConfigurationSchema, type Configuration, type ConfigurationDocument, type DataReceiver, type Transmit } from './schema.js';
import { explainUnsupported } from './product-family.js';
import { transmitDescriptorOf } from './transmits/derive.js';
import { type JsonPath, type Violation, dedupeViolations, error, hasErrors, shownValue, sortViolations, violationsFromIssues, warning, say } from './violations.js';
import { isValidTimeZone, semanticViolations, timeZoneProblem } from './semantic-rules.js';
import { encodingProblem } from './encoding-rules.js';
import { limitViolations } from './limits.js';
import { type PathContext, pathViolations } from './path-policy.js';

/** Walks the zod schema along `path` (guided by the input for discriminated unions). */
function schemaAt(schema: z.core.$ZodType, path: JsonPath, input: unknown): z.core.$ZodType | undefined {
  let current: z.core.$ZodType | undefined = schema;
  let value: unknown = input;
  for (let i = 0; i <= path.length; i += 1) {
    current = unwrap(current, value);
    if (!current || i === path.length) break;
    const part = path[i]!;
    const def = current._zod.def as unknown as Record<string, unknown>;
    if (def.type === 'object') current = (def.shape as Record<string, z.core.$ZodType>)[String(part)];
    else if (def.type === 'array') current = def.element as z.core.$ZodType;
    else if (def.type === 'record') current = def.valueType as z.core.$ZodType;
    else return undefined;
    value = value !== null && typeof value === 'object' ? (value as Record<string | number, unknown>)[part] : undefined;
  }
  return current;
}

function unwrap(schema: z.core.$ZodType | undefined, value: unknown): z.core.$ZodType | undefined {
  let current = schema;
  for (let guard = 0; current && guard < 10; guard += 1) {
    const def = current._zod.def as unknown as Record<string, unknown>;
    if (def.type === 'optional' || def.type === 'default' || def.type === 'nullable' || def.type === 'prefault') {
      current = def.innerType as z.core.$ZodType;
    } else if (def.type === 'union') {
      const options = def.options as z.core.$ZodType[];
      const discriminator = def.discriminator as string | undefined;
      if (discriminator && value && typeof value === 'object') {
        const wanted = (value as Record<string, unknown>)[discriminator];
        // propValues: the discriminator's values, also of a defaulted literal (transmit_type).
        current = options.find((option) => (option._zod as unknown as { propValues?: Record<string, Set<unknown>> }).propValues?.[discriminator]?.has(wanted));
      } else {
        current = options.find((option) => (option._zod.def as unknown as { type: string }).type === (Array.isArray(value) ? 'array' : typeof value === 'object' ? 'object' : '')) ?? options[0];
      }
    } else {
      return current;
    }
  }
  return current;
}

/** The field names an object at `path` accepts (for "did you mean" on unknown fields). */
export function knownKeysAt(path: JsonPath, input: unknown): string[] {
  const schema = schemaAt(ConfigurationSchema, path, input);
  const def = schema?._zod.def as unknown as { type?: string; shape?: Record<string, unknown> } | undefined;
  return def?.type === 'object' && def.shape ? Object.keys(def.shape) : [];
}

export interface ValidationOutcome {
  /** Every problem found, errors and warnings, in document order. */
  violations: Violation[];
  /** The parsed configuration with defaults filled in, when there are no structural errors. */
  config?: Configuration;
}

/**
 * Validates a configuration document. Structural errors come from the schema; when the structure
 * is sound the semantic rules run too. `context` (the agent's data directory and the folders the
 * operator allowed) adds the path rules that depend on where the agent runs. Never throws.
 */
export function validateConfiguration(input: unknown, context?: PathContext): ValidationOutcome {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    return { violations: [error([], say('config.not_object', 'The configuration must be a JSON object with data_receiver, transforms and data_transmit, but it is {actual}.', { actual: input === null ? 'null' : Array.isArray(input) ? 'a list' : typeof input, shown: shownValue(input) }))] };
  }
  // Lists beyond the limits are refused before anything else looks at their items.
  const tooBig = limitViolations(input);
  if (tooBig.length > 0) return { violations: tooBig };
  const parsed = ConfigurationSchema.safeParse(input);
  if (!parsed.success) {
    const structural = explainUnsupported(violationsFromIssues(parsed.error.issues, input, (path) => knownKeysAt(path, input)), input);
    // Semantic rules on the parts that did parse still help (e.g. duplicate names), so run them on
    // receivers, transforms and transmits that are individually valid.
    return { violations: sortViolations(dedupeViolations([...structural, ...partialSemantic(input, context)])) };
  }
  const semantic = [...semanticViolations(parsed.data), ...pathViolations(parsed.data, context)];
  // Left out (as in the product family's receiver examples), not written as []: say what it means.
  if (!('data_transmit' in input) && parsed.data.data_receiver.length > 0)
    semantic.push(warning(['data_transmit'], say('config.there_data_transmit_records_read', 'There is no data_transmit: records are read (and kept for KPI previews) but sent nowhere. Add a remotedatapost or csv transmit.')));
  return { violations: sortViolations(dedupeViolations(semantic)), config: resolveConfiguration(parsed.data) };
}

/**
 * The configuration as the agent runs it: each transmit as its type resolves it (a remotedatapost
 * transmit with the base_url, API_key and API_key_ID it uses: its own, else sight_machine_cloud's).
 */
export function resolveConfiguration(document: ConfigurationDocument): Configuration {
  return {
    ...document,
    data_transmit: document.data_transmit.map((t, i) => {
      const resolve = transmitDescriptorOf(t.transmit_type)?.resolve;
      return (resolve ? resolve(t, i, document) : t) as Transmit;
    }),
  };
}

/** Runs the semantic rules on whatever pieces of a structurally broken document are valid. */
function partialSemantic(input: object, context?: PathContext): Violation[] {
  const doc = input as Record<string, unknown>;
  const keep = <T>(list: unknown, schema: z.ZodType<T>): (T | undefined)[] =>
    Array.isArray(list) ? list.map((item) => bestEffort(item, schema)) : [];
  const shape = ConfigurationSchema.shape;
  const receivers = keep(doc.data_receiver, shape.data_receiver.unwrap().element);
  const transforms = keep(doc.transforms, shape.transforms.unwrap().element);
  const transmits = keep(doc.data_transmit, shape.data_transmit.unwrap().element);
  const cloud = shape.sight_machine_cloud.unwrap().safeParse(doc.sight_machine_cloud);
  const quality = keep(doc.data_quality, shape.data_quality.unwrap().element);
  const pieces = {
    data_receiver: receivers as DataReceiver[],
    transforms: transforms as ConfigurationDocument['transforms'],
    data_transmit: transmits as ConfigurationDocument['data_transmit'],
    sight_machine_cloud: cloud.success ? cloud.data : undefined,
    data_quality: quality,
  };
  const broken = [
    ...unparsed('data_receiver', doc.data_receiver, receivers),
    ...unparsed('transforms', doc.transforms, transforms),
    ...unparsed('data_transmit', doc.data_transmit, transmits),
  ];
  const semantic = semanticViolations(pieces, { partial: true });
  return [...semantic, ...pathViolations(pieces, context), ...broken.flatMap(valueViolations)];
}

/** The item as parsed; when its only fault is misspelt keys, parsed without them (their own errors stand). */
function bestEffort<T>(item: unknown, schema: z.ZodType<T>): T | undefined {
  const first = schema.safeParse(item);
  if (first.success) return first.data;
  if (!item || typeof item !== 'object' || !first.error.issues.every((i) => i.code === 'unrecognized_keys')) return undefined;
  const copy = structuredClone(item) as Record<string, unknown>;
  for (const issue of first.error.issues) {
    let node: unknown = copy;
    for (const part of issue.path) node = (node as Record<PropertyKey, unknown> | undefined)?.[part as string];
    if (issue.code === 'unrecognized_keys' && node && typeof node === 'object')
      for (const key of issue.keys) delete (node as Record<string, unknown>)[key];
  }
  const second = schema.safeParse(copy);
  return second.success ? second.data : undefined;
}

/** The raw items whose schema failed (a misspelled key elsewhere in them), with where they sit. */
function unparsed(key: string, list: unknown, parsed: readonly unknown[]): { node: unknown; path: JsonPath }[] {
  if (!Array.isArray(list)) return [];
  return list.flatMap((node, i) => (parsed[i] === undefined ? [{ node, path: [key, i] }] : []));
}

/**
 * Value rules that need no sound structure around them (time zones, encodings): checked in items the
 * schema rejected, so an unknown zone is reported in the same pass as a misspelled key beside it.
 */
function valueViolations({ node, path }: { node: unknown; path: JsonPath }, depth = 0): Violation[] {
  if (depth > 12 || node === null || typeof node !== 'object') return [];
  return Object.entries(node).flatMap(([k, v]): Violation[] => {
    const at: JsonPath = [...path, Array.isArray(node) ? Number(k) : k];
    if (typeof v === 'string' && !v.startsWith('<fill in')) {
      if ((k === 'localtz' || k === 'timezone') && !isValidTimeZone(v))
        return [error(at, timeZoneProblem(v))];
      const bad = k === 'file_encoding' || k === 'encoding' ? encodingProblem(v) : undefined;
      return bad ? [error(at, bad)] : [];
    }
    return valueViolations({ node: v, path: at }, depth + 1);
  });
}

export { hasErrors };
