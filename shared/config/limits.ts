/**
 * How big a configuration may be. Every component costs memory, timers and file watches, and every
 * item costs validation time: these limits keep the largest accepted configuration cheap enough
 * that saving, stopping and status stay answerable (docs/decisions/0011-limits-and-threads.md).
 * They are checked before anything else, with a walk that stops at the first list that is too
 * long, so a document of millions of items costs no more than its first few thousand.
 */
import { type JsonPath, type Violation, error, say, warning } from './violations.js';

export const CONFIG_LIMITS = {
  /** Receivers of one configuration. */
  receivers: 5_000,
  /** Streams of all receivers together. */
  streams: 20_000,
  /** Streams of one receiver. */
  streamsPerReceiver: 1_000,
  /** Connections, and parsers, of one receiver. */
  connectionsPerReceiver: 100,
  parsersPerReceiver: 100,
  transforms: 1_000,
  /** Transmits: each remotedatapost transmit runs its own encoding thread. */
  transmits: 100,
  /**
   * OPC UA tags of all streams of one receiver: one session subscribes them all. 100,000 is twice a
   * large line (50,000 tags, ~160,000 JSON values; the body limit of 600,000 values holds ~190,000).
   */
  opcuaTagsPerReceiver: 100_000,
  /** Any other list (file_filter, opcua_tags, filter_stream, field_names, state_fields …). */
  listItems: 10_000,
} as const;

/** Violations returned at most by a validation; the rest are summed up in one more. */
export const MAX_VIOLATIONS = 200;

const count = (n: number) => n.toLocaleString('en-US');

function tooLong(path: JsonPath, length: number, limit: number, what: string): Violation {
  return error(path, say('limits.too_many_entries', '{what} has {count} entries; Tributary takes at most {limit} (see docs/security.md). Split the configuration over several agents.', { what, count: count(length), limit: count(limit), count_n: length, limit_n: limit }));
}

/** The lists of `node` longer than CONFIG_LIMITS.listItems, searched depth first; stops at the first. */
function firstLongList(node: unknown, path: JsonPath, depth = 0): Violation | undefined {
  if (depth > 64 || node === null || typeof node !== 'object') return undefined;
  if (Array.isArray(node)) {
    if (node.length > CONFIG_LIMITS.listItems) return tooLong(path, node.length, CONFIG_LIMITS.listItems, 'This list');
    for (let i = 0; i < node.length; i += 1) {
      const found = firstLongList(node[i], [...path, i], depth + 1);
      if (found) return found;
    }
    return undefined;
  }
  for (const [key, value] of Object.entries(node)) {
    const found = firstLongList(value, [...path, key], depth + 1);
    if (found) return found;
  }
  return undefined;
}

/** The opcua_tags entries of a receiver's streams together (lists only; the schema judges the rest). */
function opcuaTagCount(streams: unknown): number {
  if (!Array.isArray(streams)) return 0;
  let tags = 0;
  for (const stream of streams) {
    const list = stream !== null && typeof stream === 'object' ? (stream as Record<string, unknown>).opcua_tags : undefined;
    if (Array.isArray(list)) tags += list.length;
  }
  return tags;
}

/**
 * Violations of CONFIG_LIMITS, at the json_path of the list that is too long. Empty when the
 * document is within them (or is not an object: the schema reports that).
 */
export function limitViolations(input: unknown): Violation[] {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) return [];
  const doc = input as Record<string, unknown>;
  const out: Violation[] = [];
  const sections: [string, number, string][] = [
    ['data_receiver', CONFIG_LIMITS.receivers, 'data_receiver'],
    ['transforms', CONFIG_LIMITS.transforms, 'transforms'],
    ['data_transmit', CONFIG_LIMITS.transmits, 'data_transmit'],
  ];
  for (const [key, limit, what] of sections) {
    const list = doc[key];
    if (Array.isArray(list) && list.length > limit) out.push(tooLong([key], list.length, limit, what));
  }
  if (out.length > 0) return out;
  const receivers = Array.isArray(doc.data_receiver) ? doc.data_receiver : [];
  let streams = 0;
  receivers.forEach((receiver, r) => {
    if (receiver === null || typeof receiver !== 'object') return;
    const perReceiver: [string, number][] = [
      ['streams', CONFIG_LIMITS.streamsPerReceiver],
      ['connections', CONFIG_LIMITS.connectionsPerReceiver],
      ['parsers', CONFIG_LIMITS.parsersPerReceiver],
    ];
    for (const [key, limit] of perReceiver) {
      const list = (receiver as Record<string, unknown>)[key];
      if (!Array.isArray(list)) continue;
      if (list.length > limit) out.push(tooLong(['data_receiver', r, key], list.length, limit, `${key} of this receiver`));
      if (key === 'streams') streams += list.length;
    }
    const tags = opcuaTagCount((receiver as Record<string, unknown>).streams);
    if (tags > CONFIG_LIMITS.opcuaTagsPerReceiver)
      out.push(tooLong(['data_receiver', r, 'streams'], tags, CONFIG_LIMITS.opcuaTagsPerReceiver, 'The opcua_tags of the streams of this receiver'));
  });
  if (streams > CONFIG_LIMITS.streams) out.push(tooLong(['data_receiver'], streams, CONFIG_LIMITS.streams, 'The streams of all receivers together'));
  if (out.length > 0) return out;
  const long = firstLongList(doc, []);
  return long ? [long] : [];
}

/**
 * The first `max` violations, and one more that says how many were left out: a document with
 * thousands of mistakes gets an answer proportional to what an engineer can act on.
 */
export function capViolations(violations: readonly Violation[], max = MAX_VIOLATIONS): Violation[] {
  if (violations.length <= max) return [...violations];
  const rest = violations.slice(max);
  const errors = rest.filter((v) => v.level === 'error').length;
  return [
    ...violations.slice(0, max),
    (errors > 0 ? error : warning)(
      [],
      say('limits.more_not_listed', '… and {more} more ({errors} error(s), {warnings} warning(s)) not listed: fix the ones above and validate again.', { more: count(rest.length), errors: count(errors), warnings: count(rest.length - errors), more_n: rest.length, errors_n: errors, warnings_n: rest.length - errors }),
    ),
  ];
}
