import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../../shared/api/routes.js';
import { configurationJsonSchema } from '../../shared/config/schema.js';
import { type TestServer, startTestServer } from '../testing/test-host.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

describe('GET /v1/meta (11, deprecated)', () => {
  it('lists the object types of the spec with their subtypes', async () => {
    const { json } = await server.call('GET', '/v1/meta');
    expect(json.success).toBe(true);
    const objects = json.response.objects as { id: string; name: string; subtypes?: { id: string; data_receiver?: string[] }[] }[];
    expect(objects.map((o) => o.id)).toEqual(['data_receiver', 'data_receiver_asset', 'data_transmit', 'transforms']);
    const ids = (id: string) => objects.find((o) => o.id === id)!.subtypes!.map((s) => s.id);
    expect(ids('data_receiver')).toEqual(expect.arrayContaining(['localfile_csv', 'sql']));
    expect(ids('transforms')).toEqual(expect.arrayContaining(['counter_assign_column', 'counter_event_string', 'pandas']));
    for (const asset of objects.find((o) => o.id === 'data_receiver_asset')!.subtypes!) expect(asset.data_receiver!.length).toBeGreaterThan(0);
    expect(objects.find((o) => o.id === 'data_transmit')!.subtypes).toBeUndefined();
  });
});

describe('GET /v1/meta/<object_id> (12, deprecated)', () => {
  it('gives the JSON Schema and a template with <<tokens>> for a receiver subtype', async () => {
    const { json } = await server.call('GET', '/v1/meta/data_receiver?subtype=localfile_csv');
    expect(json.success).toBe(true);
    const detail = json.response;
    expect(detail.subtype).toBe('localfile_csv');
    expect(detail.object).toBe('data_receiver');
    expect(detail.schema.path).toBe('data_receiver');
    expect(detail.schema.schema.properties.poll_interval).toMatchObject({ type: 'integer', minimum: 1, maximum: 65535, default: 5 });
    expect(detail.schema.schema.additionalProperties).toBe(false);
    expect(detail.schema.schema.required).toEqual(expect.arrayContaining(['data_receiver_name', 'protocol', 'streams', 'connections', 'parsers']));
    const template = JSON.stringify(detail.new_template.schema);
    for (const token of ['<<index>>', '<<data_receiver_asset>>', '<<data_receiver_connection>>']) expect(template).toContain(token);
  });

  it('ignores the subtype for data_transmit', async () => {
    const a = await server.call('GET', '/v1/meta/data_transmit');
    const b = await server.call('GET', '/v1/meta/data_transmit?subtype=anything');
    expect(a.json.success).toBe(true);
    expect(a.json.response.schema).toEqual(b.json.response.schema);
    expect(a.json.response.schema.schema.properties.API_key_ID.type).toBe('string');
  });

  it('explains a missing or unknown subtype, and an unknown object', async () => {
    const missing = await server.call('GET', '/v1/meta/data_receiver');
    expect(missing.status).toBe(400);
    expect(missing.json.error.text).toMatch(/localfile_csv/);
    expect((await server.call('GET', '/v1/meta/transforms?subtype=python')).status).toBe(400);
    const unknown = await server.call('GET', '/v1/meta/widgets');
    expect(unknown.status).toBe(404);
    expect(unknown.json.success).toBe(false);
  });
});

describe('GET /v1/openapi.json', () => {
  it('describes every endpoint, with the configuration schema generated from the zod schema', async () => {
    const { json: doc } = await server.call('GET', '/v1/openapi.json');
    expect(doc.openapi).toBe('3.1.0');
    for (const route of ROUTES) {
      const openPath = route.path.replace(/:(\w+)/g, '{$1}');
      expect(doc.paths[openPath]?.[route.method.toLowerCase()], `${route.method} ${route.path}`).toBeDefined();
      expect(doc.paths[openPath][route.method.toLowerCase()]['x-required-role'], `${route.method} ${route.path}`).toBe(route.role);
    }
    expect(ROUTES).toHaveLength(36);
    const preview = doc.paths['/v1/config/preview'].post;
    expect(preview.requestBody.content['application/json'].schema.properties).toHaveProperty('receiver');
    expect(JSON.stringify(preview.responses.default)).toContain('"records"');
    // The same properties as the configuration's JSON Schema; its JSON values are a component here.
    expect(Object.keys(doc.components.schemas.Configuration.properties)).toEqual(Object.keys(configurationJsonSchema().properties as object));
    expect(doc.components.schemas.JsonValue.anyOf).toHaveLength(6);
  });
});
