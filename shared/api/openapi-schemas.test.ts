import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openApiDocument } from './openapi.js';
import { type JsonSchema, liftSchemas } from './openapi-schemas.js';
import { ROUTES, type RouteContract } from './routes.js';

/** Every `$ref` of a document, with the JSON pointer it names resolved against the document (undefined: dangling). */
function references(document: unknown): { ref: string; target: unknown }[] {
  const found: { ref: string; target: unknown }[] = [];
  const visit = (value: unknown) => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (typeof value === 'object' && value !== null) {
      for (const [key, child] of Object.entries(value)) {
        if (key === '$ref' && typeof child === 'string') found.push({ ref: child, target: resolve(document, child) });
        else visit(child);
      }
    }
  };
  visit(document);
  return found;
}

function resolve(document: unknown, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  return ref
    .slice(2)
    .split('/')
    .map((part) => decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>((node, part) => (typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[part] : undefined), document);
}

const NAME = /^[A-Z][A-Za-z0-9]*$/;

describe('openApiDocument', () => {
  const document = openApiDocument() as { components: { schemas: Record<string, JsonSchema> } };

  it('has no $ref that points nowhere, and no $defs left for a root the document lacks', () => {
    const refs = references(document);
    expect(refs.length).toBeGreaterThan(20);
    expect(refs.filter((r) => r.target === undefined).map((r) => r.ref)).toEqual([]);
    expect(refs.every((r) => r.ref.startsWith('#/components/schemas/'))).toBe(true);
    expect(JSON.stringify(document)).not.toContain('$defs');
  });

  it('lifts the JSON values (recursive) and the shared configuration parts under readable names', () => {
    const schemas = document.components.schemas;
    for (const name of Object.keys(schemas)) expect(name).toMatch(NAME);
    expect(schemas.JsonValue!.anyOf).toContainEqual({ type: 'array', items: { $ref: '#/components/schemas/JsonValue' } });
    // The MQTT transmit's additional_fields are JSON values: the one JsonValue component, not a copy.
    expect(JSON.stringify(schemas.Configuration)).toContain('"additionalProperties":{"$ref":"#/components/schemas/JsonValue"}');
    // The stream list is shared by the file receivers: one component that each of them names.
    expect(schemas.ConfigurationStreams).toMatchObject({ type: 'array' });
    expect(JSON.stringify(schemas.Configuration).split('#/components/schemas/ConfigurationStreams').length).toBeGreaterThan(2);
    expect(Object.keys(schemas)).toEqual(expect.arrayContaining(['Configuration', 'ValidationResult', 'Violation', 'Error', 'MachineTypeKpi', 'LineKpi']));
  });

  it('gives the same names and schemas each time it is generated', () => {
    expect(JSON.stringify(openApiDocument())).toBe(JSON.stringify(document));
  });

  it('keeps every route of the table, an unknown schema slot being an error', () => {
    const paths = (document as unknown as { paths: Record<string, Record<string, { operationId: string }>> }).paths;
    const operations = Object.values(paths).flatMap((methods) => Object.values(methods).map((o) => o.operationId));
    expect(operations.sort()).toEqual(ROUTES.map((r) => r.id).sort());
    expect(() => liftSchemas([]).slot('Nothing')).toThrow(/No schema slot named Nothing/);
  });
});

describe('liftSchemas for a route the table does not have yet', () => {
  interface Tree {
    label: string;
    children: Tree[];
  }
  const tree: z.ZodType<Tree> = z.lazy(() => z.object({ label: z.string(), children: z.array(tree) }));
  const address = z.object({ street: z.string(), city: z.string() });
  const route: RouteContract = {
    id: 'plantTree',
    method: 'POST',
    role: 'admin',
    path: '/v1/plant/:site',
    summary: 'A made-up route with a recursive body and a shared part.',
    body: z.object({ root: tree, delivery: address, billing: address, note: z.json() }),
    response: z.object({ tree, sites: z.array(address) }),
  };

  it('lifts the anonymous recursive schema and the shared part, every $ref resolving', () => {
    const document = openApiDocument([route]) as { components: { schemas: Record<string, JsonSchema> } };
    expect(references(document).filter((r) => r.target === undefined)).toEqual([]);
    const names = Object.keys(document.components.schemas);
    for (const name of names) expect(name).toMatch(NAME);
    // Named after where they are first used: the body's `root` and `delivery`.
    expect(names).toEqual(expect.arrayContaining(['PlantTreeBodyRoot', 'PlantTreeBodyDelivery', 'JsonValue', 'Error']));
    expect(JSON.stringify(document.components.schemas.PlantTreeBodyRoot)).toContain('#/components/schemas/PlantTreeBodyRoot');
  });

  it('writes in place what is used once or is only a scalar, and names come from .meta({ title })', () => {
    const shortText = z.string().min(1);
    const gauge = z.object({ value: z.number(), unit: shortText }).meta({ title: 'gauge reading' });
    const lifted = liftSchemas([
      { name: 'FirstBody', schema: z.object({ a: gauge, b: shortText, c: z.object({ once: z.boolean() }) }) },
      { name: 'SecondBody', schema: z.object({ again: gauge, d: shortText }) },
    ]);
    expect(Object.keys(lifted.components)).toEqual(['GaugeReading']);
    const first = lifted.slot('FirstBody') as { properties: Record<string, JsonSchema> };
    expect(first.properties.a).toEqual({ $ref: '#/components/schemas/GaugeReading' });
    expect(first.properties.b).toEqual({ type: 'string', minLength: 1 });
    expect(first.properties.c).toMatchObject({ type: 'object', properties: { once: { type: 'boolean' } } });
  });
});
