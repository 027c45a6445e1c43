/**
 * OpenAPI 3.1 description of the management API, generated from the route table and zod schemas.
 */
import { z } from 'zod';
import { ConfigurationSchema } from '../config/schema.js';
import { API_VERSION } from './envelope.js';
import { ROUTES, type RouteContract } from './routes.js';

const toSchema = (s: z.ZodType) =>
  s === ConfigurationSchema ? { $ref: '#/components/schemas/Configuration' } : (stripDialect(z.toJSONSchema(s, { io: 'input', unrepresentable: 'any' })) as object);

function stripDialect(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _dialect, ...rest } = schema;
  return rest;
}

function envelope(route: RouteContract) {
  return {
    type: 'object',
    required: ['success', 'response'],
    properties: {
      success: { type: 'boolean' },
      response: toSchema(route.responseDocument ?? route.response),
      ...(route.meta ? { meta: toSchema(route.meta) } : {}),
      error: { $ref: '#/components/schemas/Error' },
    },
  };
}

export function openApiDocument(): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of ROUTES as readonly RouteContract[]) {
    const openPath = route.path.replace(/:(\w+)/g, '{$1}');
    const pathParams = [...route.path.matchAll(/:(\w+)/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'string' } }));
    const queryParams = Object.entries(route.query ?? {}).map(([name, q]) => ({ name, in: 'query', required: q.required ?? false, description: q.description, schema: toSchema(q.schema) }));
    paths[openPath] ??= {};
    paths[openPath]![route.method.toLowerCase()] = {
      operationId: route.id,
      summary: route.summary,
      ...(route.description ? { description: route.description } : {}),
      ...(route.deprecated ? { deprecated: true } : {}),
      // The least role of a token that may call it (docs/security.md); `x-elevated-role` for some bodies.
      'x-required-role': route.role,
      ...(route.elevated ? { 'x-elevated-role': { when: `the body has ${route.elevated.field}`, role: route.elevated.role } } : {}),
      parameters: [...pathParams, ...queryParams],
      ...(route.body ? { requestBody: { required: true, content: { 'application/json': { schema: toSchema(route.bodyDocument ?? route.body) } } } } : {}),
      responses: {
        default: { description: 'Spec envelope; read `success`.', content: { 'application/json': { schema: envelope(route) } } },
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Tributary management API', version: API_VERSION, description: 'Every response is the envelope {success, response, meta?, error?}. Authenticate with Authorization: Bearer <token>.' },
    servers: [{ url: '/' }],
    security: [{ bearer: [] }],
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      schemas: {
        Configuration: stripDialect(z.toJSONSchema(ConfigurationSchema, { io: 'input', unrepresentable: 'any' })),
        Error: { type: 'object', required: ['code', 'text'], properties: { code: { type: 'integer' }, text: { type: 'string' } } },
      },
    },
  };
}
