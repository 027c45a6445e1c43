/**
 * OpenAPI 3.1 description of the management API, generated from the route table and zod schemas.
 * Every schema goes through liftSchemas (openapi-schemas.ts): recursive and shared schemas become
 * named components, so every `$ref` resolves for any route the table gains.
 */
import { z } from 'zod';
import { ConfigurationSchema } from '../config/schema.js';
import { ValidationResultSchema, ViolationSchema } from '../config/violations.js';
import { API_VERSION, ApiErrorBodySchema } from './envelope.js';
import {
  type JsonSchema,
  type LiftedSchemas,
  type NamedSchema,
  type SchemaSlot,
  liftSchemas,
  pascal,
} from './openapi-schemas.js';
import { LineKpiSchema, MachineTypeKpiSchema } from '../kpi/schema.js';
import { AgentStatusSchema, ConfigChangesSchema } from './resources.js';
import { ROUTES, type RouteContract } from './routes.js';

/** Components under fixed names, whenever the document uses them (an integrator's client keeps these). */
const NAMED: readonly NamedSchema[] = [
  [ConfigurationSchema, 'Configuration'],
  [ValidationResultSchema, 'ValidationResult'],
  [ViolationSchema, 'Violation'],
  [AgentStatusSchema, 'AgentStatus'],
  [ConfigChangesSchema, 'ConfigChanges'],
  [MachineTypeKpiSchema, 'MachineTypeKpi'],
  [LineKpiSchema, 'LineKpi'],
  [ApiErrorBodySchema, 'Error'],
  // Any z.json() of a route is this one component (they are all the same shape).
  [z.json(), 'JsonValue'],
];

/** The places of one route that hold a schema, each with its slot name (`SaveConfigBody`). */
function routeSlots(route: RouteContract): SchemaSlot[] {
  const base = pascal(route.id);
  const slots: SchemaSlot[] = [];
  const body = route.bodyDocument ?? route.body;
  if (body) slots.push({ name: `${base}Body`, schema: body });
  slots.push({ name: `${base}Response`, schema: route.responseDocument ?? route.response });
  if (route.meta) slots.push({ name: `${base}Meta`, schema: route.meta });
  if (route.failure) slots.push({ name: `${base}Failure`, schema: route.failure });
  for (const [name, parameter] of Object.entries(route.query ?? {})) {
    slots.push({ name: `${base}Query${pascal(name)}`, schema: parameter.schema });
  }
  return slots;
}

/** The failed envelope: the route's failure payload when it has one, else whatever (mostly {}). */
function failedEnvelope(route: RouteContract, schemas: LiftedSchemas): JsonSchema {
  return {
    type: 'object',
    required: ['success', 'response'],
    properties: {
      success: { const: false },
      response: route.failure ? schemas.slot(`${pascal(route.id)}Failure`) : {},
      meta: { type: 'object', additionalProperties: true },
      error: schemas.slot('Error'),
    },
  };
}

function responses(route: RouteContract, schemas: LiftedSchemas): JsonSchema {
  const base = pascal(route.id);
  const json = (schema: JsonSchema) => ({ 'application/json': { schema } });
  const answer = schemas.slot(`${base}Response`);
  // Raw routes answer the bare document on success; their failures keep the envelope (docs/decisions/0036).
  if (route.raw)
    return {
      200: { description: 'The document itself, not wrapped in the envelope.', content: json(answer) },
      default: { description: 'Spec envelope with the error.', content: json(failedEnvelope(route, schemas)) },
    };
  const ok = {
    type: 'object',
    required: ['success', 'response'],
    properties: {
      success: { const: true },
      response: answer,
      meta: route.meta ? schemas.slot(`${base}Meta`) : { type: 'object', additionalProperties: true },
    },
  };
  const either = { oneOf: [ok, failedEnvelope(route, schemas)] };
  return { default: { description: 'Spec envelope; read `success`.', content: json(either) } };
}

/** One operation of the document. Per-route additions (such as the role a route needs) go here. */
function operation(route: RouteContract, schemas: LiftedSchemas): JsonSchema {
  const base = pascal(route.id);
  const json = (schema: JsonSchema) => ({ 'application/json': { schema } });
  const pathParams = [...route.path.matchAll(/:(\w+)/g)].map((m) => ({
    name: m[1],
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  const queryParams = Object.entries(route.query ?? {}).map(([name, q]) => ({
    name,
    in: 'query',
    required: q.required ?? false,
    description: q.description,
    schema: schemas.slot(`${base}Query${pascal(name)}`),
  }));
  const body = route.bodyDocument ?? route.body;
  return {
    operationId: route.id,
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    ...(route.deprecated ? { deprecated: true } : {}),
    // The least role of a token that may call it (docs/security.md); `x-elevated-role` for some bodies.
    'x-required-role': route.role,
    ...(route.elevated
      ? { 'x-elevated-role': { when: `the body has ${route.elevated.field}`, role: route.elevated.role } }
      : {}),
    parameters: [...pathParams, ...queryParams],
    ...(body ? { requestBody: { required: true, content: json(schemas.slot(`${base}Body`)) } } : {}),
    responses: responses(route, schemas),
  };
}

export function openApiDocument(routes: readonly RouteContract[] = ROUTES): Record<string, unknown> {
  const schemas = liftSchemas([...routes.flatMap(routeSlots), { name: 'Error', schema: ApiErrorBodySchema }], NAMED);
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const openPath = route.path.replace(/:(\w+)/g, '{$1}');
    paths[openPath] ??= {};
    paths[openPath]![route.method.toLowerCase()] = operation(route, schemas);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Tributary management API',
      version: API_VERSION,
      description:
        'Every response is the envelope {success, response, meta?, error?}, except GET /v1/openapi.json, ' +
        'which answers this document itself. Authenticate with Authorization: Bearer <token>.',
    },
    servers: [{ url: '/' }],
    security: [{ bearer: [] }],
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      schemas: schemas.components,
    },
  };
}
