import type { ComponentType, ServiceState, ServiceStatus } from '../../../shared/api/resources.js';
import type { MarkerStore } from '../markers/marker-store.js';
import { type AgentMessage, say } from '../../../shared/config/message.js';

/** The words of a stream no transmit sends, on Status and Streams. */
export const unsentMessage = (stream: string): AgentMessage =>
  say('health.unsent', 'No transmit sends {streams}: its records are read and marked read but never leave this agent. Add a transmit (or a filter_stream entry) for it; records read before it exists are sent only after a restream.', { streams: stream });

/** One reason for all of a receiver's streams no transmit takes. */
function unsentReason(streams: readonly string[]): AgentMessage {
  if (streams.length <= 3) return unsentMessage(streams.join(', '));
  return say(
    'health.unsent_more',
    'No transmit sends {streams} and {more} more: its records are read and marked read but never leave this agent. Add a transmit (or a filter_stream entry) for it; records read before it exists are sent only after a restream.',
    { streams: streams.slice(0, 3).join(', '), more: streams.length - 3 },
  );
}

const SERVICE_KINDS: Record<string, ComponentType | undefined> = { receiver: 'Receiver', transform: 'Transform', transmit: 'Transmit' };

/**
 * Each service's health next to its spec status: `degraded` while the component has current error
 * markers (a missing folder, a refused login …), with the newest one's message as the reason, or
 * while a running receiver reads streams that no transmit sends (`unsent`, per receiver name). A
 * stopped service is not judged.
 */
export function withHealth(services: Record<string, { status: ServiceStatus }>, markers: MarkerStore, unsent: ReadonlyMap<string, readonly string[]> = new Map()): Record<string, ServiceState> {
  const out: Record<string, ServiceState> = {};
  for (const [id, service] of Object.entries(services)) {
    const colon = id.indexOf(':');
    const kind = SERVICE_KINDS[id.slice(0, colon)];
    const errors = kind && service.status !== 'stopped' ? markers.ofComponent(id.slice(colon + 1), kind, 'error') : [];
    // A running receiver with streams no transmit takes: its records go nowhere (issue 56); after its own errors.
    const nowhere = kind === 'Receiver' && service.status === 'running' ? (unsent.get(id.slice(colon + 1)) ?? []) : [];
    const said: AgentMessage[] = errors.map((m) => ({ text: m.message, code: m.code ?? `marker.${m.category}`, params: m.params ?? { text: m.message } }));
    if (nowhere.length > 0) said.push(unsentReason(nowhere));
    const messages = [...new Map(said.map((m) => [m.text, m])).values()];
    const first = messages[0];
    const more = messages.length > 1 ? ` (and ${messages.length - 1} more problem${messages.length > 2 ? 's' : ''}; see Streams)` : '';
    out[id] = { status: service.status, health: first ? 'degraded' : 'ok', reason: first ? `${first.text}${more}` : null };
    // The reason's own code (absent when ok, as reason_at): the console writes it in its language.
    if (first) Object.assign(out[id], { reason_code: first.code, reason_params: { ...first.params, more_problems: messages.length - 1 } });
    // When the problem was last seen: the Status page links to the log lines of that time.
    if (errors[0]) out[id].reason_at = errors[0].timestamp;
  }
  return out;
}
