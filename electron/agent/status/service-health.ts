import type { ComponentType, ServiceState, ServiceStatus } from '../../../shared/api/resources.js';
import type { MarkerStore } from '../markers/marker-store.js';

/** The words of a stream no transmit sends, on Status and Streams. */
export const unsentMessage = (stream: string) =>
  `No transmit sends ${stream}: its records are read and marked read but never leave this agent. Add a transmit (or a filter_stream entry) for it; records read before it exists are sent only after a restream.`;

/** One reason for all of a receiver's streams no transmit takes. */
function unsentReason(streams: readonly string[]): string {
  const named = streams.length <= 3 ? streams.join(', ') : `${streams.slice(0, 3).join(', ')} and ${streams.length - 3} more`;
  return unsentMessage(named);
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
    const messages = [...new Set([...errors.map((m) => m.message), ...(nowhere.length > 0 ? [unsentReason(nowhere)] : [])])];
    const more = messages.length > 1 ? ` (and ${messages.length - 1} more problem${messages.length > 2 ? 's' : ''}; see Streams)` : '';
    out[id] = { status: service.status, health: messages.length > 0 ? 'degraded' : 'ok', reason: messages.length > 0 ? `${messages[0]}${more}` : null };
    // When the problem was last seen: the Status page links to the log lines of that time.
    if (errors[0]) out[id].reason_at = errors[0].timestamp;
  }
  return out;
}
