/**
 * What a request of one route carries and what comes back, and the two calls that send it: the
 * vocabulary ApiClient implements and its per-area clients (kpi-client.ts) use, kept apart so that
 * client.ts and those clients do not import each other (decision 0054).
 */
import type { BodyInputOf, FailureOf, MetaOf, PathParams, ResponseOf, RouteOf } from '../../../shared/api/route-types.js';
import type { RouteId } from '../../../shared/api/routes.js';

type QueryInput<Id extends RouteId> = RouteOf<Id> extends { query: infer Q } ? { [K in keyof Q]?: string | number | boolean } : never;

/** What a request of route `Id` carries: path parameters, query, body, extra headers. */
export type RouteRequest<Id extends RouteId> = {
  params?: PathParams<RouteOf<Id>['path']>;
  query?: QueryInput<Id>;
  body?: BodyInputOf<Id>;
  headers?: Record<string, string>;
  /** Sent to this agent even while another one is managed; with `via`, through this agent's proxy to that one. */
  local?: boolean;
  via?: string;
};

/** An answer of route `Id`: its success response, or a failure that is an answer (route.failure). */
export type RouteAnswer<Id extends RouteId> =
  | { status: number; success: true; response: ResponseOf<Id>; meta: MetaOf<Id> }
  | { status: number; success: false; response: FailureOf<Id>; meta: Record<string, unknown>; text: string };

/** Sends a route's request: `route` gives failures that are answers, `call` throws them. ApiClient is one. */
export interface RouteCaller {
  route<Id extends RouteId>(id: Id, request?: RouteRequest<Id>): Promise<RouteAnswer<Id>>;
  call<Id extends RouteId>(id: Id, request?: RouteRequest<Id>): Promise<{ response: ResponseOf<Id>; meta: MetaOf<Id> }>;
}
