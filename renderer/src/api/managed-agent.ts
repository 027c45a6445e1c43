/**
 * Which agent the console manages: this one (null) or an agent of the fleet, reached through
 * /v1/fleet/agents/{name}/api/… on this one. The choice lives for the browser tab (sessionStorage),
 * like the token; every page's requests go to the chosen agent (docs/fleet.md).
 */
import { fleetProxyBase } from '../../../shared/api/fleet.js';
import type { ApiRequest, RawReply, Transport } from './transport.js';

const KEY = 'tributary.managed-agent';
/** Requests about this console's own session and this agent's fleet and tokens are never forwarded. */
const LOCAL = [/^\/v1\/fleet(\/|$|\?)/, /^\/v1\/session(\?|$)/, /^\/v1\/tokens(\/|\?|$)/, /^\/v1\/openapi\.json/];

export class ManagedAgentStore {
  private listeners = new Set<() => void>();
  private current: string | null;

  constructor(private readonly storage?: Storage) {
    this.current = storage?.getItem(KEY) || null;
  }

  readonly get = (): string | null => this.current;

  set(name: string | null): void {
    if (name === this.current) return;
    this.current = name;
    if (name) this.storage?.setItem(KEY, name);
    else this.storage?.removeItem(KEY);
    for (const listener of this.listeners) listener();
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
}

/** The path a request takes when `agent` is managed. */
export function managedPath(path: string, agent: string | null): string {
  if (!agent || LOCAL.some((pattern) => pattern.test(path))) return path;
  return `${fleetProxyBase(agent)}${path}`;
}

/** Sends each request to the managed agent through this one's proxy. */
export function createFleetTransport(inner: Transport, managed: ManagedAgentStore): Transport {
  return {
    kind: inner.kind,
    send(request: ApiRequest): Promise<RawReply> {
      const { local, ...rest } = request;
      return inner.send(local ? rest : { ...rest, path: managedPath(request.path, managed.get()) });
    },
  };
}

/**
 * A colour of the agent's own, the same on every console: a hue from its name, dark enough for white
 * text (4.5:1 at any hue); this agent (empty name) is slate.
 */
export function agentColour(name: string): string {
  if (!name) return '#3b4a5c';
  let hash = 0;
  for (const char of name) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return `hsl(${hash % 360} 70% 26%)`;
}
