import { API_VERSION, API_VERSION_HEADER, type Envelope } from '../../shared/api/envelope.js';
import { ApiError } from '../../shared/api/errors.js';
import { AgentError, loggablePath } from '../agent/index.js';
import { apiErrorOf } from './agent-error-status.js';
import { parseRouteInput } from '../../shared/api/route-types.js';
import { ROUTES, type RouteContract, type RouteId } from '../../shared/api/routes.js';
import { type Role, roleAllows, roleRefusal } from '../../shared/api/roles.js';
import type { AgentRuntime } from '../agent/index.js';
import { type Caller, DESKTOP_CALLER } from './auth/caller.js';
import type { TokenStore } from './auth/token-store.js';
import { agentRoutes } from './routes/agent.js';
import { configRoutes } from './routes/config.js';
import { kpiRoutes } from './routes/kpis.js';
import { logRoutes } from './routes/logs.js';
import { metaRoutes } from './routes/meta.js';
import { opcuaRoutes } from './routes/opcua.js';
import { statusRoutes } from './routes/status.js';
import { tokenRoutes } from './routes/tokens.js';
import { fleetRoutes } from './routes/fleet.js';
import type { FleetService } from './fleet/fleet-service.js';
import type { ApiRequest, ApiResponse, Handler, HandlerContext, Handlers } from './handler-types.js';
import { forwardToAgent } from './fleet/fleet-proxy.js';
import { parseFleetProxyPath } from '../../shared/api/fleet.js';

export type { ApiRequest, ApiResponse, Handler, HandlerContext, Handlers, Reply } from './handler-types.js';

/** Every handler by route id: the whole API at a glance (contracts in shared/api/routes.ts). */
const HANDLERS: Handlers<RouteId> = {
  ...configRoutes,
  ...kpiRoutes,
  ...agentRoutes,
  ...logRoutes,
  ...metaRoutes,
  ...statusRoutes,
  ...opcuaRoutes,
  ...tokenRoutes,
  ...fleetRoutes,
};

interface CompiledRoute {
  id: RouteId;
  contract: RouteContract;
  method: string;
  pattern: RegExp;
  names: string[];
}

const COMPILED: CompiledRoute[] = ROUTES.map((route) => {
  const names: string[] = [];
  const source = route.path.replace(/:(\w+)/g, (_, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  return { id: route.id, contract: route, method: route.method, pattern: new RegExp(`^${source}/?$`), names };
});

const baseHeaders = () => ({ [API_VERSION_HEADER]: API_VERSION });

export function failure(status: number, text: string, response: unknown = {}, headers: Record<string, string> = {}): ApiResponse {
  return { status, headers: { ...baseHeaders(), ...headers }, body: { success: false, response, error: { code: status, text } } };
}

/**
 * Dispatches a request to its handler and returns the spec envelope. Never throws: a typed ApiError
 * keeps its status and payload; anything else is an unexpected error (500, logged once here).
 */
/** The role a request needs: its route's, or a stronger one for some bodies (RouteContract.elevated). */
function neededRole(contract: RouteContract, body: unknown): { role: Role; what?: string } {
  const elevated = contract.elevated;
  if (elevated && body && typeof body === 'object' && (body as Record<string, unknown>)[elevated.field] !== undefined) return elevated;
  return { role: contract.role };
}

export interface RouterOptions {
  tokens?: TokenStore;
  fleet?: FleetService;
}

/** The route a method and path reach, with its path parameters; undefined when none. */
export function matchRoute(method: string, path: string): { id: RouteId; contract: RouteContract } | undefined {
  const hit = COMPILED.find((route) => route.method === method && route.pattern.test(path));
  return hit && { id: hit.id, contract: hit.contract };
}

export class Router {
  constructor(
    private readonly runtime: AgentRuntime,
    private readonly options: RouterOptions = {},
  ) {}

  /**
   * Requests refused before they reached a route (no or an unknown token): audited in aggregate
   * (audit-refused.log, per minute the first of each kind and then how many more; anyone who
   * reaches the port can send them, issues 39 and 50).
   */
  readonly unauthenticated = {
    note: ({ method, path }: { method: string; path: string }) => this.runtime.audit.refused({ token: '-', role: '-', method, path, status: 401, outcome: 'unauthenticated' }),
    flush: () => this.runtime.audit.flushRefusals(),
  };

  /** 403: audited in aggregate per token and route (the route's pattern, not the path asked for). */
  private refuse(caller: Caller, method: string, route: string, needed: { role: Role; what?: string }): ApiResponse {
    this.runtime.audit.refused({ token: caller.name, role: caller.role, method, path: route, status: 403, outcome: `refused: needs ${needed.role}` });
    return failure(403, roleRefusal(needed.role, caller.role, caller.name, needed.what), { required_role: needed.role });
  }

  /**
   * Checks the caller's role against the route's (403 naming the role needed), parses the input,
   * calls the handler, and audits what an operator or admin route did. `stream`: the transport sends
   * lists read while they are sent (`ApiResponse.stream`); otherwise they are read whole into the
   * envelope (IPC, tests).
   */
  async dispatch(request: ApiRequest, options: { stream?: boolean } = {}): Promise<ApiResponse> {
    const method = request.method.toUpperCase();
    const proxied = parseFleetProxyPath(request.path);
    if (proxied) return this.forward(request, method, proxied);
    const candidates = COMPILED.map((route) => ({ route, match: route.pattern.exec(request.path) })).filter((c) => c.match);
    if (candidates.length === 0) return failure(404, `No such endpoint: ${method} ${request.path}`);
    const hit = candidates.find((c) => c.route.method === method);
    if (!hit) {
      const allowed = [...new Set(candidates.map((c) => c.route.method))].join(', ');
      return failure(405, `${method} is not allowed on ${request.path}; use ${allowed}.`, {}, { Allow: allowed });
    }
    const params: Record<string, string> = {};
    try {
      hit.route.names.forEach((name, i) => {
        params[name] = decodeURIComponent(hit.match![i + 1]!);
      });
    } catch {
      return failure(400, `The path ${request.path} is not correctly encoded.`);
    }
    const caller = request.caller ?? DESKTOP_CALLER;
    const contract = hit.route.contract;
    if (!roleAllows(caller.role, contract.role)) return this.refuse(caller, method, contract.path, { role: contract.role });
    // Everything an operator or admin may do is audited, refused or not; a viewer's reads are not.
    const audited = contract.role !== 'viewer';
    const audit = (status: number, outcome: string, revision?: unknown) =>
      audited && this.runtime.audit.record({ token: caller.name, role: caller.role, method, path: request.path, status, outcome, revision: typeof revision === 'number' ? revision : undefined });
    // The route's contract, applied once here: handlers get typed input or are not called.
    const input = parseRouteInput(contract, request.query, request.body);
    if (!input.ok) {
      audit(400, 'bad request');
      return failure(400, input.message);
    }
    const needed = neededRole(contract, input.body);
    if (!roleAllows(caller.role, needed.role)) return this.refuse(caller, method, contract.path, needed);
    const response = await this.handle(contract, hit.route.id, { runtime: this.runtime, params, query: input.query, headers: request.headers, body: input.body, caller, tokens: this.options.tokens, fleet: this.options.fleet } as HandlerContext, method, request.path, options);
    audit(response.status, response.body.success ? 'ok' : 'failed', (response.body.meta as Record<string, unknown> | undefined)?.revision);
    return response;
  }

  /**
   * /v1/fleet/agents/{name}/api/<path>: the caller's role is checked against this agent's own rule
   * for <path> first (and audited as any request is), then the request goes on with the stored token.
   */
  private async forward(request: ApiRequest, method: string, target: { name: string; path: string }): Promise<ApiResponse> {
    const caller = request.caller ?? DESKTOP_CALLER;
    const route = matchRoute(method, target.path);
    if (!route) return failure(404, `No such endpoint to forward to the agent "${target.name}": ${method} ${target.path}`);
    const needed = neededRole(route.contract, request.body);
    if (!roleAllows(caller.role, needed.role)) return this.refuse(caller, method, `/v1/fleet/agents/:name/api${route.contract.path}`, needed);
    const response = await forwardToAgent(this.options.fleet, target.name, { method, path: target.path, query: request.query, headers: request.headers, body: request.body }, (cause) =>
      this.runtime.webLog.error(`Unexpected error forwarding ${method} ${loggablePath(request.path)}`, cause),
    );
    if (route.contract.role !== 'viewer') this.runtime.audit.record({ token: caller.name, role: caller.role, method, path: request.path, status: response.status, outcome: response.body?.success ? 'ok' : 'failed' });
    return response;
  }

  private async handle(
    contract: RouteContract,
    id: RouteId,
    context: HandlerContext,
    method: string,
    path: string,
    options: { stream?: boolean },
  ): Promise<ApiResponse> {
    try {
      const handler = HANDLERS[id] as Handler;
      const reply = await handler(context);
      let response = reply.response;
      if (reply.stream && !options.stream) {
        try {
          response = await reply.stream.lines();
        } finally {
          await reply.stream.close();
        }
      }
      const success = reply.success ?? true;
      // Standard OpenAPI tools read the document at its URL: no envelope around it (docs/decisions/0036).
      if (contract.raw && success) return { status: reply.status ?? 200, headers: { ...baseHeaders(), ...reply.headers }, body: response as Envelope };
      const body: Envelope = { success, response };
      if (reply.meta) body.meta = reply.meta;
      const status = reply.status ?? 200;
      if (!success && status >= 400) body.error = { code: status, text: reply.errorText ?? (typeof reply.response === 'string' ? reply.response : 'The request failed; see response.') };
      return { status, headers: { ...baseHeaders(), ...reply.headers }, body, ...(reply.stream && options.stream ? { stream: reply.stream } : {}) };
    } catch (cause) {
      const known = cause instanceof AgentError ? apiErrorOf(cause) : cause;
      if (known instanceof ApiError) return failure(known.status, known.message, known.response, known.headers);
      this.runtime.webLog.error(`Unexpected error in ${method} ${loggablePath(path)}`, cause);
      return failure(500, `Unexpected error: ${(cause as Error)?.message ?? String(cause)}`);
    }
  }
}
