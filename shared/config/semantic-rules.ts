/**
 * Semantic rules: what the schema cannot say. Each rule reports at the exact json_path an engineer
 * must change, in words that say what is wrong and what to do.
 */
import type { z } from 'zod';
import type { ConfigurationDocument, DataReceiver, SightMachineCloudSchema } from './schema.js';
import { type JsonPath, type Violation, closest, error, warning, say } from './violations.js';
import type { AgentMessage } from './message.js';
import { matchesStream, parseFilter } from './streams.js';
import { transformTypeViolations } from './transforms/derive.js';
export { sqlPlaceholders } from './receivers/sql/rules.js';
import { receiverDescriptorOf } from './receivers/derive.js';
import { fileFilterViolations } from './file-filter-rules.js';
import { parserTypeViolations } from './parsers/derive.js';
import { isDocumentParser } from './parsers/index.js';
import { transmitDescriptorOf, transmitDocumentViolations } from './transmits/derive.js';
import { fileOrderViolations } from './product-family.js';
import { folderNameViolations } from './name-rules.js';
import { dataQualityViolations } from './data-quality-rules.js';
import type { DataQualityEntry } from './data-quality-schema.js';

type MaybeList<T> = readonly (T | undefined)[];
interface PartialConfiguration {
  data_receiver: MaybeList<DataReceiver>;
  transforms: MaybeList<ConfigurationDocument['transforms'][number]>;
  data_transmit: MaybeList<ConfigurationDocument['data_transmit'][number]>;
  sight_machine_cloud?: z.infer<typeof SightMachineCloudSchema>;
  data_quality?: MaybeList<DataQualityEntry>;
}

import { TEMPLATE_PROMPT_PREFIX } from './template-parts.js';
export { TEMPLATE_PROMPT_PREFIX };

const isPrompt = (value: string) => value.startsWith(TEMPLATE_PROMPT_PREFIX);

const STRPTIME_DIRECTIVES = new Set('aAwdbBmyYHIpMSfzZjUWcxXGuV%'.split(''));

const knownZones = new Map<string, boolean>();

/** Whether `zone` is an IANA time zone. Remembered: asking Intl costs ~0.1 ms, 5,000 parsers 0.5 s. */
export function isValidTimeZone(zone: string): boolean {
  let valid = knownZones.get(zone);
  if (valid === undefined) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: zone });
      valid = true;
    } catch {
      valid = false;
    }
    if (knownZones.size >= 1000) knownZones.clear();
    knownZones.set(zone, valid);
  }
  return valid;
}

let zoneNames: readonly string[] | undefined;

/** The message for an unknown zone, with the closest IANA name when it looks like a typo. */
export function timeZoneProblem(zone: string): AgentMessage {
  zoneNames ??= typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  // Case-insensitive match first: "europe/berlin" is a typo of one zone, not of the nearest by letters.
  const hint = zoneNames.find((z) => z.toLowerCase() === zone.toLowerCase()) ?? closest(zone, zoneNames);
  if (hint) return say('time_zone.unknown_hint', '"{zone}" is not a known time zone. Did you mean "{hint}"? Use an IANA name such as Europe/Berlin or America/Chicago.', { zone, hint });
  return say('time_zone.unknown', '"{zone}" is not a known time zone. Use an IANA name such as Europe/Berlin or America/Chicago.', { zone });
}

/** Returns the first unknown strptime directive in `format`, or undefined when all are known. */
export function unknownStrptimeDirective(format: string): string | undefined {
  for (let i = 0; i < format.length; i += 1) {
    if (format[i] !== '%') continue;
    let j = i + 1;
    if (format[j] === '-' || format[j] === '#') j += 1;
    const directive = format[j];
    if (directive === undefined || !STRPTIME_DIRECTIVES.has(directive)) return format.slice(i, j + 1);
    i = j;
  }
  return undefined;
}

function duplicates<T>(items: MaybeList<T>, key: (item: T) => string | undefined, report: (index: number, firstIndex: number, value: string) => void): void {
  const firstSeen = new Map<string, number>();
  items.forEach((item, index) => {
    if (item === undefined) return;
    const value = key(item);
    if (value === undefined) return;
    const first = firstSeen.get(value);
    if (first === undefined) firstSeen.set(value, index);
    else report(index, first, value);
  });
}

function walkStrings(node: unknown, path: JsonPath, visit: (value: string, path: JsonPath) => void): void {
  if (typeof node === 'string') visit(node, path);
  else if (Array.isArray(node)) node.forEach((item, i) => walkStrings(item, [...path, i], visit));
  else if (node && typeof node === 'object') for (const [k, v] of Object.entries(node)) walkStrings(v, [...path, k], visit);
}

export function semanticViolations(config: PartialConfiguration, options: { partial?: boolean } = {}): Violation[] {
  const out: Violation[] = [];
  const receivers = config.data_receiver;

  duplicates(receivers, (r) => r.data_receiver_name, (i, first, value) =>
    out.push(error(['data_receiver', i, 'data_receiver_name'], say('config.receiver_name_already_used', 'The receiver name "{value}" is already used by receiver {first}. Names must be unique: progress is kept under them.', { value, first: first + 1 }))));
  duplicates(config.transforms, (t) => t.transform_name, (i, first, value) =>
    out.push(error(['transforms', i, 'transform_name'], say('config.transform_name_already_used', 'The transform name "{value}" is already used by transform {first}. Names must be unique.', { value, first: first + 1 }))));
  duplicates(config.data_transmit, (t) => t.transmit_name, (i, first, value) =>
    out.push(error(['data_transmit', i, 'transmit_name'], say('config.transmit_name_already_used', 'The transmit name "{value}" is already used by transmit {first}. Names must be unique.', { value, first: first + 1 }))));

  out.push(...folderNameViolations(config));

  const allStreams: { stream: string; receiver: number }[] = [];
  receivers.forEach((receiver, r) => {
    if (!receiver) return;
    out.push(...receiverViolations(receiver, r));
    receiver.streams.forEach((s) => allStreams.push({ stream: `${s.asset}:${s.stream_type}`, receiver: r }));
  });

  duplicates(allStreams, (s) => s.stream, (i, first, value) => {
    const a = allStreams[i]!;
    const b = allStreams[first]!;
    if (a.receiver !== b.receiver) {
      const index = receivers[a.receiver]!.streams.findIndex((s) => `${s.asset}:${s.stream_type}` === value);
      out.push(warning(['data_receiver', a.receiver, 'streams', index], say('config.stream_also_read_receiver', 'The stream "{value}" is also read by receiver {receiver}; both feed the same stream, and a restream must name each receiver.', { value, receiver: b.receiver + 1 })));
    }
  });

  const streamNames = allStreams.map((s) => s.stream);
  const selectsAny = streamIndex(allStreams.map((s) => s.stream));
  const checkFilter = (filter: readonly string[] | undefined, path: JsonPath) => {
    filter?.forEach((entry, k) => {
      const problem = parseFilter(entry).problem;
      if (problem) out.push(error([...path, k], say('stream_filter.invalid', '{text}', { text: problem, filter: entry })));
      else if (!options.partial && streamNames.length > 0 && !selectsAny(entry))
        out.push(warning([...path, k], say('config.filter_matches_no_stream', '"{entry}" matches none of the configured streams ({streams}).', { entry, streams: streamNames.slice(0, 5).join(', ') + (streamNames.length > 5 ? ', …' : '') })));
    });
  };
  receivers.forEach((receiver, r) => {
    if (receiver && 'parsers' in receiver) receiver.parsers.forEach((p, k) => checkFilter(p.filter_stream, ['data_receiver', r, 'parsers', k, 'filter_stream']));
  });
  config.transforms.forEach((t, i) => {
    if (!t) return;
    checkFilter(t.filter_stream, ['transforms', i, 'filter_stream']);
    out.push(...transformViolations(t, i));
  });
  config.data_transmit.forEach((t, i) => {
    if (!t) return;
    checkFilter(t.filter_stream, ['data_transmit', i, 'filter_stream']);
    // The type's own rules, from its folder (transmits/<type>/index.ts).
    const rules = transmitDescriptorOf(t.transmit_type)?.rules;
    if (rules) out.push(...rules(t, { base: ['data_transmit', i], index: i, document: config, isPrompt }));
  });
  if (!options.partial) out.push(...unsentStreamViolations(config, allStreams));
  out.push(...transmitDocumentViolations(config, options.partial ?? false));
  out.push(...dataQualityViolations(config.data_quality, options.partial || streamNames.length === 0 ? undefined : selectsAny));

  // A value still holding a template prompt gets one clear "fill in" error instead of whatever
  // else its prompt text happens to violate (time zone, URL, ':' in names …).
  const prompts = new Set<string>();
  walkStrings(config, [], (value, path) => {
    if (!isPrompt(value)) return;
    prompts.add(JSON.stringify(path));
    out.push(error(path, say('config.fill_still_holds_template', 'Fill in {path}: it still holds the template\'s prompt {value}.', { path: String(path[path.length - 1]), value })));
  });
  return out.filter((v) => v.description.startsWith('Fill in ') || !prompts.has(JSON.stringify(v.json_path)));
}

/**
 * A stream no transmit takes (issue 56): its records are read, marked read and never leave, and a
 * transmit added later does not get them. One warning per stream, at its receiver (docs/decisions/0069).
 */
function unsentStreamViolations(config: PartialConfiguration, streams: readonly { stream: string; receiver: number }[]): Violation[] {
  const transmits = config.data_transmit.filter((t) => t !== undefined);
  // All filters in one lookup: 20,000 streams against 200 transmits tried one by one take seconds.
  const ids = new Set<string>();
  const assets = new Set<string>();
  const types = new Set<string>();
  let all = false;
  for (const t of transmits) {
    if (t.filter_stream === undefined) all = true;
    for (const entry of t.filter_stream ?? []) {
      const { asset, streamType, problem } = parseFilter(entry);
      if (problem) continue;
      if (asset === '*' && streamType === '*') all = true;
      else if (asset === '*') types.add(streamType!);
      else if (streamType === '*') assets.add(asset!);
      else ids.add(`${asset}:${streamType}`);
    }
  }
  if (all) return [];
  const out: Violation[] = [];
  for (const { stream, receiver } of streams) {
    const colon = stream.indexOf(':');
    if (ids.has(stream) || assets.has(stream.slice(0, colon)) || types.has(stream.slice(colon + 1))) continue;
    const name = config.data_receiver[receiver]?.data_receiver_name ?? `receiver ${receiver + 1}`;
    const why = transmits.length === 0 ? 'there is no transmit' : "no transmit's filter_stream selects it";
    out.push(warning(['data_receiver', receiver], say('config.transmit_sends_stream_receiver', 'No transmit sends the stream "{stream}" of receiver "{name}" ({why}): its records are read and marked read but never leave this agent. Add a transmit or a filter_stream entry for it; a transmit added later sends only records read from then on.', { stream, name, why })));
  }
  return out;
}

/**
 * Whether a filter entry selects any of `streams`, in constant time: with thousands of streams and
 * filters, trying every stream for every entry took seconds.
 */
function streamIndex(streams: readonly string[]): (entry: string) => boolean {
  const names = new Set(streams);
  const assets = new Set<string>();
  const types = new Set<string>();
  for (const stream of streams) {
    const colon = stream.indexOf(':');
    assets.add(stream.slice(0, colon));
    types.add(stream.slice(colon + 1));
  }
  return (entry) => {
    const { asset, streamType, problem } = parseFilter(entry);
    if (problem) return false;
    if (asset === '*' && streamType === '*') return streams.length > 0;
    if (asset === '*') return types.has(streamType!);
    if (streamType === '*') return assets.has(asset!);
    return names.has(`${asset}:${streamType}`);
  };
}

function receiverViolations(receiver: DataReceiver, r: number): Violation[] {
  const out: Violation[] = [];
  const base: JsonPath = ['data_receiver', r];
  duplicates<{ asset: string; stream_type: string }>(receiver.streams, (s) => `${s.asset}:${s.stream_type}`, (j, first, value) =>
    out.push(error([...base, 'streams', j], say('config.stream_defined_twice_receiver', 'The stream "{value}" is defined twice in this receiver (also stream {first}).', { value, first: first + 1 }))));
  receiver.streams.forEach((s, j) => {
    if (s.asset.includes(':')) out.push(error([...base, 'streams', j, 'asset'], say('config.asset_name_must_contain', 'An asset name must not contain ":" (streams are named asset:stream_type).')));
    if (s.stream_type.includes(':')) out.push(error([...base, 'streams', j, 'stream_type'], say('config.stream_type_must_contain_streams', 'A stream_type must not contain ":" (streams are named asset:stream_type).')));
  });

  if ('parsers' in receiver) {
    // File receivers (they read files with parsers), whatever their protocol.
    if (receiver.delete_completed)
      out.push(warning([...base, 'delete_completed'], say('config.files_deleted_source_after', 'Files will be deleted from the source after they are read and buffered. Make sure no one else needs them.')));
    duplicates(receiver.parsers, (p) => p.parser_name, (k, first, value) =>
      out.push(error([...base, 'parsers', k, 'parser_name'], say('config.parser_name_already_used', 'The parser name "{value}" is already used by parser {first} of this receiver.', { value, first: first + 1 }))));
    receiver.parsers.forEach((p, k) => {
      // The type's own rules, from its folder (parsers/<type>/index.ts).
      out.push(...parserTypeViolations(p, [...base, 'parsers', k]));
      const zone = p.options?.localtz;
      if (zone && !isPrompt(zone) && !isValidTimeZone(zone)) out.push(error([...base, 'parsers', k, 'options', 'localtz'], timeZoneProblem(zone)));
      const stamps = isDocumentParser(p) ? p.options?.parse_timestamps : p.options?.parse?.parse_timestamps;
      stamps?.forEach((ts, t) => {
        const bad = ts.format === undefined ? undefined : unknownStrptimeDirective(ts.format);
        const at = isDocumentParser(p) ? ['options', 'parse_timestamps', t, 'format'] : ['options', 'parse', 'parse_timestamps', t, 'format'];
        if (bad) out.push(error([...base, 'parsers', k, ...at], say('config.time_format_directive', '"{bad}" is not a time format directive. Use e.g. %Y-%m-%d %H:%M:%S.', { bad })));
      });
    });
    out.push(...fileFilterViolations(receiver.streams, base));
    out.push(...fileOrderViolations(receiver, base));
    const parserNames = receiver.parsers.map((p) => p.parser_name);
    receiver.streams.forEach((s, j) => {
      const stream = `${s.asset}:${s.stream_type}`;
      if (s.parser !== undefined) {
        if (!parserNames.includes(s.parser))
          out.push(error([...base, 'streams', j, 'parser'], say('config.parser_named_receiver_parsers', 'No parser named "{parser}" in this receiver. Parsers here: {parserNames}.', { parser: s.parser, parserNames: parserNames.join(', ') })));
      } else if (!receiver.parsers.some((p) => !p.filter_stream || p.filter_stream.some((f) => matchesStream(f, stream)))) {
        out.push(error([...base, 'streams', j], say('config.parser_receiver_reads_stream', 'No parser of this receiver reads the stream "{stream}": add it to a parser\'s filter_stream or name a parser in the stream.', { stream })));
      }
    });
  }
  // The protocol's own rules, from its folder (receivers/<protocol>/index.ts).
  const rules = receiverDescriptorOf(receiver.protocol)?.rules;
  if (rules) out.push(...rules(receiver, base, { isPrompt, isValidTimeZone, unknownStrptimeDirective }));
  return out;
}

function transformViolations(t: ConfigurationDocument['transforms'][number], i: number): Violation[] {
  // The type's own rules, from its folder (transforms/<type>/index.ts).
  return transformTypeViolations(t, ['transforms', i], { isValidTimeZone, timeZoneProblem, unknownStrptimeDirective });
}
