/**
 * One reason per row of the data flow (issue 56): the stream's own problem first (an error of its
 * receiver or a transform, or that no transmit sends it), else why its records do not get out. A
 * long upload error is cut to its first sentence on the row: it is the same on every row of that
 * transmit, and whole on hover and on the transmit's card.
 */
import type { Marker } from '../../../../shared/api/resources.js';
import { formatNumber } from '../../format/locale.js';
import type { DeliveryProblem } from './data-flow.js';
import { agentTextOf } from '../../i18n/agent-text.js';
import { text as catalogText } from '../../i18n/language.js';

export interface RowReason {
  /** own: the stream's own problem; delivery: its records wait at a transmit. */
  kind: 'own' | 'delivery';
  text: string;
  /** The whole text when `text` is cut. */
  detail?: string;
}

const MAX_REASON = 100;

/** The first sentence, at most MAX_REASON characters. */
export function shortReason(text: string): string {
  const sentence = text.split(/(?<=[.!?])\s/)[0] ?? text;
  return sentence.length > MAX_REASON ? `${sentence.slice(0, MAX_REASON - 1).trimEnd()}…` : sentence;
}

export function rowReason(markers: readonly Marker[], stuck: DeliveryProblem | undefined): RowReason | undefined {
  const own = markers.find((m) => m.level === 'error' && m.component_type !== 'Transmit') ?? markers.find((m) => m.category === 'no_transmit');
  if (own) return { kind: 'own', text: agentTextOf(own, own.message) };
  if (!stuck) return undefined;
  const short = shortReason(stuck.reason);
  const text = catalogText('dataFlow.notGettingOut', { waiting: formatNumber(stuck.waiting), transmit: stuck.transmit, reason: short });
  return short === stuck.reason ? { kind: 'delivery', text } : { kind: 'delivery', text, detail: stuck.reason };
}
