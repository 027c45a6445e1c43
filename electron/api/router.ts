import { API_VERSION, API_VERSION_HEADER, type Envelope } from '../../shared/api/envelope.js';
import { ApiError } from '../../shared/api/errors.js';
import { ROUTES, type RouteId } from '../../shared/api/routes.js';
import type { AgentRuntime } from '../agent/index.js';
import { agentRoutes } from './routes/agent.js';
import { configRoutes } from './routes/config.js';
import { kpiRoutes } from './routes/kpis.js';
import { logRoutes } from './routes/logs.js';
import { metaRoutes } from './routes/meta.js';
import { opcuaRoutes } from './routes/opcua.js';
import { statusRoutes } from './routes/status.js';

/** A request as any transport (HTTP, Electron IPC) hands it to the router. */
export interface ApiRequest {
  method: string;
  /** Path without query string, e.g. /v1/config. */
  path: string;
  query: Record<string, string>;
  headers: Record<string, string | undefined>;
  /** Parsed JSON body, or undefined when there was none. */
  body?: unknown;
}

export interface ApiResponse {
  status: number;
  headers: Record<string, string>;
  body: Envelope;
}

/** What a handler returns; the router wraps it in the envelope. */
export interface Reply {
  response: unknown;
  success?: boolean;
  status?: number;
  meta?: Record<string, unknown>;
  headers?: Record<string, string>;
  /** error.text of a failure (default: the response when it is text). */
  errorText?: string;
}

export interface HandlerContext {
  runtime: AgentRuntime;
  params: Record<string, string>;
  query: Record<string, string>;
  headers: Record<string, string | undefined>;
  body: unknown;
}

export type Handler = (context: HandlerContext) => Reply | Promise<Reply>;

/** Every handler by route id: the whole API at a glance (contracts in shared/api/routes.ts). */
const HANDLERS: Record<RouteId, Handler> = {
  ...configRoutes,
  ...kpiRoutes,
  ...agentRoutes,
  ...logRoutes,
  ...metaRoutes,
  ...statusRoutes,
  ...opcuaRoutes,
};

interface CompiledRoute {
  id: RouteId;
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
  return { id: route.id, method: route.method, pattern: new RegExp(`^${source}/?$`), names };
});

const baseHeaders = () => ({ [API_VERSION_HEADER]: API_VERSION });

export function failure(status: number, text: string, response: unknown = {}, headers: Record<string, string> = {}): ApiResponse {
  return { status, headers: { ...baseHeaders(), ...headers }, body: { success: false, response, error: { code: status, text } } };
}

/**
 * Dispatches a request to its handler and returns the spec envelope. Never throws: a typed ApiError
 * keeps its status and payload; anything else is an unexpected error (500, logged once here).
 */
export class Router {
  constructor(private readonly runtime: AgentRuntime) {}

  async dispatch(request: ApiRequest): Promise<ApiResponse> {
    const method = request.method.toUpperCase();
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
    try {
      const reply = await HANDLERS[hit.route.id]({ runtime: this.runtime, params, query: request.query, headers: request.headers, body: request.body });
      const success = reply.success ?? true;
      const body: Envelope = { success, response: reply.response };
      if (reply.meta) body.meta = reply.meta;
      const status = reply.status ?? 200;
      if (!success && status >= 400) body.error = { code: status, text: reply.errorText ?? (typeof reply.response === 'string' ? reply.response : 'The request failed; see response.') };
      return { status, headers: { ...baseHeaders(), ...reply.headers }, body };
    } catch (cause) {
      if (cause instanceof ApiError) return failure(cause.status, cause.message, cause.response, cause.headers);
      this.runtime.webLog.error(`Unexpected error in ${method} ${request.path}`, cause);
      return failure(500, `Unexpected error: ${(cause as Error)?.message ?? String(cause)}`);
    }
  }
}
