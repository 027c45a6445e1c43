/**
 * The router's vocabulary: requests, responses, replies and typed handlers. Route modules
 * (routes/*) and the fleet proxy import these from here, not from router.ts, which imports them:
 * no import circles (decision 0054).
 */
import type { LogSlice, AgentRuntime } from '../agent/index.js';
import type { Envelope } from '../../shared/api/envelope.js';
import type { BodyOf, PathParams, QueryOf, RouteOf } from '../../shared/api/route-types.js';
import type { RouteId } from '../../shared/api/routes.js';
import type { Caller } from './auth/caller.js';
import type { TokenStore } from './auth/token-store.js';
import type { FleetService } from './fleet/fleet-service.js';

/** A request as any transport (HTTP, Electron IPC) hands it to the router. */
export interface ApiRequest {
  method: string;
  /** Path without query string, e.g. /v1/config. */
  path: string;
  query: Record<string, string>;
  headers: Record<string, string | undefined>;
  /** Parsed JSON body, or undefined when there was none. */
  body?: unknown;
  /**
   * Who sent it (the HTTP adapter: the token's name and role). Absent only for in-process callers
   * (the desktop window, tests): they act as the local admin.
   */
  caller?: Caller;
}

export interface ApiResponse {
  status: number;
  headers: Record<string, string>;
  /**
   * The envelope. A raw route's success (contract `raw`: GET /v1/openapi.json) carries its bare
   * document here instead; the transports only serialize the body, so they need not tell.
   */
  body: Envelope;
  /** Log lines sent while they are read (HTTP): the list that is `body.response`. Whoever sends it closes it. */
  stream?: LogSlice;
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
  /** A list read while it is sent, in place of `response` (log lines). */
  stream?: LogSlice;
}

/** What a handler of route `Id` gets: query and body already parsed with the route's schemas. */
export interface HandlerContext<Id extends RouteId = RouteId> {
  runtime: AgentRuntime;
  params: PathParams<RouteOf<Id>['path']>;
  query: QueryOf<Id>;
  headers: Record<string, string | undefined>;
  body: BodyOf<Id>;
  caller: Caller;
  /** Named tokens (absent in hosts without them: the token routes answer 404). */
  tokens?: TokenStore;
  /** The agents managed from this one (absent in hosts without a fleet: the fleet routes answer 404). */
  fleet?: FleetService;
}

export type Handler<Id extends RouteId = RouteId> = (context: HandlerContext<Id>) => Reply | Promise<Reply>;

/** Handlers of some routes, each typed by its own route's contract. */
export type Handlers<Ids extends RouteId> = { [Id in Ids]: Handler<Id> };
