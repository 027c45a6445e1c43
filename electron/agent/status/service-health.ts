import type { ComponentType, ServiceState, ServiceStatus } from '../../../shared/api/resources.js';
import type { MarkerStore } from '../markers/marker-store.js';

const SERVICE_KINDS: Record<string, ComponentType | undefined> = { receiver: 'Receiver', transform: 'Transform', transmit: 'Transmit' };

/**
 * Each service's health next to its spec status: `degraded` while the component has current error
 * markers (a missing folder, a refused login …), with the newest one's message as the reason. A
 * stopped service is not judged.
 */
export function withHealth(services: Record<string, { status: ServiceStatus }>, markers: MarkerStore): Record<string, ServiceState> {
  const out: Record<string, ServiceState> = {};
  for (const [id, service] of Object.entries(services)) {
    const colon = id.indexOf(':');
    const kind = SERVICE_KINDS[id.slice(0, colon)];
    const errors = kind && service.status !== 'stopped' ? markers.ofComponent(id.slice(colon + 1), kind, 'error') : [];
    const messages = [...new Set(errors.map((m) => m.message))];
    const more = messages.length > 1 ? ` (and ${messages.length - 1} more problem${messages.length > 2 ? 's' : ''}; see Streams)` : '';
    out[id] = { status: service.status, health: messages.length > 0 ? 'degraded' : 'ok', reason: messages.length > 0 ? `${messages[0]}${more}` : null };
    // When the problem was last seen: the Status page links to the log lines of that time.
    if (errors[0]) out[id].reason_at = errors[0].timestamp;
  }
  return out;
}
