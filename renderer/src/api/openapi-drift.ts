/**
 * Compile-time proof that the OpenAPI document and the console's client agree on every route.
 * openapi-types.ts is what openapi-typescript makes of GET /v1/openapi.json (kept current by
 * electron/api/openapi-tools.test.ts); `npm run typecheck` fails here, naming the route and what
 * differs, when a route of the table is missing from the document or says otherwise there.
 * Nothing imports this file at run time.
 */
import type { z } from 'zod';
import type { PathParams, RouteOf } from '../../../shared/api/route-types.js';
import type { RouteId } from '../../../shared/api/routes.js';
import type { RouteRequest } from './client.js';
import type { paths } from './openapi-types.js';

/** `/v1/kpis/:name` → `/v1/kpis/{name}`, as the document writes paths. */
type OpenPath<P extends string> = P extends `${infer Head}:${infer Name}/${infer Rest}`
  ? `${Head}{${Name}}/${OpenPath<Rest>}`
  : P extends `${infer Head}:${infer Name}`
    ? `${Head}{${Name}}`
    : P;

type Route<Id extends RouteId> = RouteOf<Id>;
type DocPath<Id extends RouteId> = OpenPath<Route<Id>['path']>;
/** The document's operation of a route (never when the document lacks it). */
type Operation<Id extends RouteId> = DocPath<Id> extends keyof paths
  ? Lowercase<Route<Id>['method']> extends keyof paths[DocPath<Id>]
    ? NonNullable<paths[DocPath<Id>][Lowercase<Route<Id>['method']>]>
    : never
  : never;
type Json<T> = T extends { content: { 'application/json': infer Body } } ? Body : never;
type Answer<Id extends RouteId> = Json<Operation<Id> extends { responses: { default: infer R } } ? R : never>;
type DocSuccess<Id extends RouteId> = Route<Id> extends { raw: true }
  ? { response: Json<Operation<Id> extends { responses: { 200: infer R } } ? R : never> }
  : Extract<Answer<Id>, { success: true }>;
type DocFailure<Id extends RouteId> = Extract<Answer<Id>, { success: false }>;
type ResponseIn<T> = T extends { response: infer R } ? R : never;
type DocBody<Id extends RouteId> = Operation<Id> extends { requestBody: infer B } ? Json<B> : undefined;
type DocParameters<Id extends RouteId, In extends 'path' | 'query'> =
  Operation<Id> extends { parameters: { [K in In]?: infer P } } ? NonNullable<P> : never;
type DocMeta<Id extends RouteId> = NonNullable<DocSuccess<Id> extends { meta?: infer D } ? D : never>;

type Is<A, B> = [A] extends [B] ? true : false;
type Same<A, B> = [Is<A, B>, Is<B, A>] extends [true, true] ? true : false;
/** Query names: what the client may send, each one optional there. */
type Names<T> = [T] extends [never] ? never : keyof T & string;
type Input<S> = S extends z.ZodType ? z.input<S> : never;

/** What must hold for one route; every entry is `true` when the document and the client agree. */
interface Checks<Id extends RouteId> {
  /** The document has the route's path and method. */
  inDocument: [Operation<Id>] extends [never] ? false : true;
  /** Every answer the document promises parses with the client's response schema. */
  response: Is<ResponseIn<DocSuccess<Id>>, Input<Route<Id>['response']>>;
  meta: Route<Id> extends { meta: infer M } ? Is<DocMeta<Id>, Input<M>> : true;
  failure: Route<Id> extends { failure: infer F } ? Is<ResponseIn<DocFailure<Id>>, Input<F>> : true;
  /** The same body both ways; with a wider body document, whatever it allows the client can send. */
  body: Route<Id> extends { bodyDocument: z.ZodType }
    ? Is<DocBody<Id>, NonNullable<RouteRequest<Id>['body']>>
    : Route<Id> extends { body: z.ZodType }
      ? Same<DocBody<Id>, NonNullable<RouteRequest<Id>['body']>>
      : Is<DocBody<Id>, undefined>;
  pathParameters: Same<Names<DocParameters<Id, 'path'>>, keyof PathParams<Route<Id>['path']> & string>;
  query: Same<Names<DocParameters<Id, 'query'>>, Names<NonNullable<RouteRequest<Id>['query']>>>;
}

type Disagreements<Id extends RouteId> = {
  [K in keyof Checks<Id>]: Checks<Id>[K] extends true ? never : K;
}[keyof Checks<Id>];
/** Each route whose document and client disagree, with what they disagree on. */
export type ApiDrift = { [Id in RouteId as [Disagreements<Id>] extends [never] ? never : Id]: Disagreements<Id> };

// The build stops here when ApiDrift is not empty: "missing the following properties" names the routes.
export const noApiDrift: ApiDrift = {};
