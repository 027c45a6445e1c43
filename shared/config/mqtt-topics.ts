/**
 * MQTT topic names and filters (MQTT 3.1.1 and 5, section 4.7): `/` separates levels, `+` matches
 * one level, `#` the level it stands in and every level below; wildcards only as whole levels, `#`
 * only last. Topics starting with `$` are the broker's own. Pure: validation and the agent use it.
 */
import { TOPIC_PLACEHOLDERS } from './mqtt-schema.js';

/** MQTT caps topics at 65,535 bytes of UTF-8; a few hundred is plenty in practice. */
const MAX_TOPIC_CHARACTERS = 65_535 / 4;

/** What is wrong with a subscription filter, or undefined when the broker will accept it. */
export function topicFilterProblem(filter: string): string | undefined {
  if (filter.includes('\u0000')) return 'A topic filter must not contain the NUL character.';
  if (filter.length > MAX_TOPIC_CHARACTERS) return 'The topic filter is too long.';
  // A shared subscription ($share/<group>/<filter>) spreads messages over the clients of a group.
  const shared = /^\$share\/([^/]*)\/(.*)$/.exec(filter);
  if (filter.startsWith('$share/') && (!shared || shared[1] === '' || /[+#]/.test(shared[1]!) || shared[2] === ''))
    return 'A shared subscription is written $share/<group>/<filter>, with a group name without + or #.';
  const levels = (shared ? shared[2]! : filter).split('/');
  for (let i = 0; i < levels.length; i += 1) {
    const level = levels[i]!;
    if (level === '#' && i !== levels.length - 1) return '"#" must be the last level of a topic filter, e.g. plant1/line1/#.';
    if (level.length > 1 && /[+#]/.test(level))
      return `"${level}" mixes a wildcard with text: + and # must stand alone between slashes, e.g. plant1/+/temperature.`;
  }
  return undefined;
}

/** The filter a shared subscription applies to topics (without `$share/<group>/`). */
export function matchingPart(filter: string): string {
  const shared = /^\$share\/[^/]+\/(.*)$/.exec(filter);
  return shared ? shared[1]! : filter;
}

/** True when `topic` (a published topic name) matches the subscription `filter`. */
export function topicMatches(filter: string, topic: string): boolean {
  const wanted = matchingPart(filter).split('/');
  const levels = topic.split('/');
  // Filters starting with a wildcard do not match the broker's own $ topics (4.7.2).
  if (topic.startsWith('$') && (wanted[0] === '+' || wanted[0] === '#')) return false;
  for (let i = 0; i < wanted.length; i += 1) {
    const level = wanted[i]!;
    if (level === '#') return true;
    if (i >= levels.length) return false;
    if (level !== '+' && level !== levels[i]) return false;
  }
  return wanted.length === levels.length;
}

/** True when some topic matches both filters (two streams would both receive its messages). */
export function topicFiltersOverlap(a: string, b: string): boolean {
  const left = matchingPart(a).split('/');
  const right = matchingPart(b).split('/');
  for (let i = 0; ; i += 1) {
    const l = left[i];
    const r = right[i];
    if (l === '#' || r === '#') return true;
    if (l === undefined || r === undefined) return l === r;
    if (l !== '+' && r !== '+' && l !== r) return false;
  }
}

/** What is wrong with a transmit's topic (placeholders allowed), or undefined. */
export function publishTopicProblem(topic: string): string | undefined {
  if (topic.includes('\u0000')) return 'A topic must not contain the NUL character.';
  if (/[+#]/.test(topic)) return 'A topic to publish to must not contain + or #: those are wildcards for subscribers.';
  if (topic.startsWith('$')) return 'Topics starting with $ belong to the broker ($SYS …); choose another first level.';
  const names = TOPIC_PLACEHOLDERS.map((p) => `{${p}}`).join(' and ');
  for (const match of topic.matchAll(/\{([^{}]*)\}/g)) {
    if (!(TOPIC_PLACEHOLDERS as readonly string[]).includes(match[1]!)) return `"${match[0]}" is not a placeholder: only ${names} are replaced.`;
  }
  if (/[{}]/.test(topic.replace(/\{([^{}]*)\}/g, ''))) return `The topic has an unmatched "{" or "}": placeholders are written ${names}.`;
  return undefined;
}

/**
 * The topic of a stream's records: placeholders replaced. A `/`, `+` or `#` inside an asset or
 * stream type would change the topic's levels or make it a wildcard: they become `_`.
 */
export function expandTopic(topic: string, asset: string, streamType: string): string {
  if (!topic.includes('{')) return topic;
  const level = (text: string) => text.replace(/[/+#\u0000]/g, '_');
  return topic.replaceAll('{asset}', level(asset)).replaceAll('{stream_type}', level(streamType));
}
