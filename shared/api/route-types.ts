/**
 * Types and helpers derived from the route table (routes.ts), shared by the router (typed handler
 * input) and the console's client (typed requests and answers): one contract per route.
 */
import { z } from 'zod';
import type { QueryParameter, RouteContract, RouteId, ROUTES } from './routes.js';

export type RouteOf<Id extends RouteId> = Extract<(typeof ROUTES)[number], { id: Id }>;

/** `{ name: string }` for each `:name` in a path. */
export type PathParams<Path extends string> = Path extends `${string}:${infer Name}/${infer Rest}`
  ? { [K in Name]: string } & PathParams<`/${Rest}`>
  : Path extends `${string}:${infer Name}`
    ? { [K in Name]: string }
    : Record<never, string>;

/** Required, or with a default (its schema takes undefined): always there; else possibly undefined. */
type QueryValue<P> = P extends { schema: infer S extends z.ZodType; required: true }
  ? z.output<S>
  : P extends { schema: infer S extends z.ZodType }
    ? undefined extends z.input<S>
      ? z.output<S>
      : z.output<S> | undefined
    : never;

/** The parsed query of a route, as its handler gets it (absent optional parameters: undefined or their default). */
export type QueryOf<Id extends RouteId> = RouteOf<Id> extends { query: infer Q } ? { [K in keyof Q]: QueryValue<Q[K]> } : Record<never, never>;

/** The parsed body of a route, as its handler gets it. */
export type BodyOf<Id extends RouteId> = RouteOf<Id> extends { body: infer B extends z.ZodType } ? z.output<B> : undefined;

/** What a client sends as the body. */
export type BodyInputOf<Id extends RouteId> = RouteOf<Id> extends { body: infer B extends z.ZodType } ? z.input<B> : undefined;

export type ResponseOf<Id extends RouteId> = z.output<RouteOf<Id>['response']>;

export type FailureOf<Id extends RouteId> = RouteOf<Id> extends { failure: infer F extends z.ZodType } ? z.output<F> : never;

export type MetaOf<Id extends RouteId> = RouteOf<Id> extends { meta: infer M extends z.ZodType } ? z.output<M> : Record<string, unknown>;

/** The path of a route with its parameters filled in (encoded) and the query appended. */
export function pathOf(route: RouteContract, params: Record<string, string> = {}, query: Record<string, string | number | boolean | undefined> = {}): string {
  const path = route.path.replace(/:(\w+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${route.id} needs the path parameter ${name}`);
    return encodeURIComponent(value);
  });
  const text = Object.entries(query)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`)
    .join('&');
  return text ? `${path}?${text}` : path;
}

export type RouteInput = { ok: true; query: Record<string, unknown>; body: unknown } | { ok: false; message: string };

function problem(error: z.ZodError): string {
  return z.prettifyError(error).replace(/✖ /g, '').replace(/\n\s*→ /g, ' ').split('\n').join('; ');
}

/**
 * Parses a request's query (text values; an empty value counts as absent) and body against its
 * route: the typed input of the handler, or what is wrong with the request in words.
 */
export function parseRouteInput(route: RouteContract, query: Record<string, string>, body: unknown): RouteInput {
  const parsedQuery: Record<string, unknown> = {};
  for (const [name, parameter] of Object.entries(route.query ?? {}) as [string, QueryParameter][]) {
    const raw = query[name];
    if (raw === undefined || raw === '') {
      if (parameter.required) return { ok: false, message: `The query parameter ${name} is missing: ${parameter.description}` };
      // Absent: its default, if the schema has one.
      const absent = parameter.schema.safeParse(undefined);
      parsedQuery[name] = absent.success ? absent.data : undefined;
      continue;
    }
    const parsed = parameter.schema.safeParse(raw);
    if (!parsed.success) return { ok: false, message: `The query parameter ${name} is not valid: ${problem(parsed.error)}.` };
    parsedQuery[name] = parsed.data;
  }
  if (!route.body) return { ok: true, query: parsedQuery, body: undefined };
  const what = route.body.description ?? 'the request';
  if (body === undefined) return { ok: false, message: `Send ${what} as JSON in the request body (Content-Type: application/json).` };
  const parsed = route.body.safeParse(body);
  if (!parsed.success) return { ok: false, message: `The request body is not valid: ${problem(parsed.error)}. Send ${what}.` };
  return { ok: true, query: parsedQuery, body: parsed.data };
}
