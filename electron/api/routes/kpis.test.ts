import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { availabilityKpi, mtbfKpi, oeeKpi, rejectRateLineKpi } from '../../../shared/testing/kpi-fixtures.js';
import { type TestServer, startTestServer } from '../../testing/test-host.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

describe('POST /v1/kpis/validate', () => {
  it('passes a valid machine-type KPI', async () => {
    const { status, json } = await server.call('POST', '/v1/kpis/validate', oeeKpi());
    expect(status).toBe(200);
    expect(json).toMatchObject({ success: true, response: { status: 'passed', violations: [] }, meta: { kind: 'machine_type' } });
  });

  it('fails with the configuration violation shape and success false', async () => {
    const broken = { ...availabilityKpi(), formula: '(up_time/all_time*100' };
    const { status, json } = await server.call('POST', '/v1/kpis/validate', broken);
    expect(status).toBe(200);
    expect(json.success).toBe(false);
    expect(json.response.status).toBe('failed');
    expect(json.response.violations).toEqual([expect.objectContaining({ json_path: ['formula'], level: 'error', description: expect.stringMatching(/at position 22/) })]);
  });

  it('detects a line KPI by machine_types, and ?kind forces the kind', async () => {
    expect((await server.call('POST', '/v1/kpis/validate', rejectRateLineKpi())).json).toMatchObject({ success: true, meta: { kind: 'line' } });
    const forcedMachineType = await server.call('POST', '/v1/kpis/validate?kind=machine_type', rejectRateLineKpi());
    expect(forcedMachineType.json.success).toBe(false);
    expect(forcedMachineType.json.response.violations[0].json_path).toEqual(['field_maps', 0, 'alias_map', 'rejects_capper', 'machine_type']);
    expect(forcedMachineType.json.response.violations.map((v: any) => v.json_path)).toContainEqual(['field_maps', 0, 'machine_types']);
    const forcedLine = await server.call('POST', '/v1/kpis/validate?kind=line', availabilityKpi());
    expect(forcedLine.json.response.violations.map((v: any) => v.json_path)).toContainEqual(['field_maps', 0, 'machine_types']);
    expect((await server.call('POST', '/v1/kpis/validate?kind=plant', availabilityKpi())).status).toBe(400);
  });

  it('refuses a request without a body', async () => {
    const { status, json } = await server.call('POST', '/v1/kpis/validate');
    expect(status).toBe(400);
    expect(json.success).toBe(false);
  });
});

describe('the KPI library', () => {
  it('saves, lists, reads, renames and deletes', async () => {
    const saved = await server.call('PUT', '/v1/kpis/mtbf', mtbfKpi());
    expect(saved.status).toBe(200);
    expect(saved.json).toMatchObject({ success: true, response: mtbfKpi(), meta: { kind: 'machine_type', last_modified: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}$/) } });

    const line = await server.call('PUT', '/v1/kpis/line_reject_rate', rejectRateLineKpi());
    expect(line.json.meta.kind).toBe('line');

    const list = await server.call('GET', '/v1/kpis');
    expect(list.json.response.map((e: any) => [e.name, e.kind, e.display_name, e.unit])).toEqual([
      ['line_reject_rate', 'line', 'Line reject rate', '%'],
      ['mtbf', 'machine_type', 'MTBF', 'minutes'],
    ]);

    const one = await server.call('GET', '/v1/kpis/mtbf');
    expect(one.json).toMatchObject({ success: true, response: mtbfKpi(), meta: { kind: 'machine_type' } });

    // Renaming onto a KPI that exists is refused; onto a free name it moves the KPI.
    const clash = await server.call('PUT', '/v1/kpis/mtbf', { ...mtbfKpi(), name: 'line_reject_rate' });
    expect(clash.status).toBe(422);
    expect(clash.json.response.violations).toContainEqual(expect.objectContaining({ json_path: ['name'], level: 'error' }));
    const renamed = await server.call('PUT', '/v1/kpis/mtbf', { ...mtbfKpi(), name: 'mtbf_minutes' });
    expect(renamed.json.success).toBe(true);
    expect((await server.call('GET', '/v1/kpis/mtbf')).status).toBe(404);
    expect((await server.call('GET', '/v1/kpis/mtbf_minutes')).json.response.name).toBe('mtbf_minutes');

    // The library keeps the definition as written: its key order, no defaults added.
    const { name: _name, formula, ...rest } = mtbfKpi();
    const reordered = { formula, name: 'mtbf_minutes', ...rest };
    await server.call('PUT', '/v1/kpis/mtbf_minutes', reordered);
    expect(Object.keys((await server.call('GET', '/v1/kpis/mtbf_minutes')).json.response)).toEqual(Object.keys(reordered));

    const deleted = await server.call('DELETE', '/v1/kpis/mtbf_minutes');
    expect(deleted.json).toEqual({ success: true, response: 'KPI "mtbf_minutes" deleted.' });
    const again = await server.call('DELETE', '/v1/kpis/mtbf_minutes');
    expect(again.status).toBe(404);
    expect(again.json.success).toBe(false);
    await server.call('DELETE', '/v1/kpis/line_reject_rate');
  });

  it('keeps a KPI whose name is a raw field name with spaces (the path encodes it)', async () => {
    const definition = { ...availabilityKpi(), name: 'Cycle Time %', display_name: 'Cycle time share' };
    const saved = await server.call('PUT', `/v1/kpis/${encodeURIComponent('Cycle Time %')}`, definition);
    expect(saved.status, JSON.stringify(saved.json)).toBe(200);
    expect((await server.call('GET', '/v1/kpis/Cycle%20Time%20%25')).json.response).toEqual(definition);
    expect((await server.call('GET', '/v1/kpis')).json.response.map((k: { name: string }) => k.name)).toContain('Cycle Time %');
    expect((await server.call('DELETE', '/v1/kpis/Cycle%20Time%20%25')).status).toBe(200);
  });

  it('refuses an invalid definition with 422 and violations, and stores nothing', async () => {
    const broken = { ...availabilityKpi(), dependencies: [{ name: 'up_time', aggregate: 'median' }, { name: 'all_time', aggregate: 'sum' }] };
    const { status, json } = await server.call('PUT', '/v1/kpis/availability', broken);
    expect(status).toBe(422);
    expect(json.success).toBe(false);
    expect(json.error.code).toBe(422);
    expect(json.response.status).toBe('failed');
    expect(json.response.violations[0].json_path).toEqual(['dependencies', 0, 'aggregate']);
    expect((await server.call('GET', '/v1/kpis/availability')).status).toBe(404);
  });

  it('refuses a new KPI whose name differs from the path', async () => {
    const { status, json } = await server.call('PUT', '/v1/kpis/other', availabilityKpi());
    expect(status).toBe(422);
    expect(json.response.violations[0]).toMatchObject({ json_path: ['name'], description: expect.stringMatching(/differs from the name in the path/) });
  });

  it('keeps the library in state/kpi.db across restarts', async () => {
    const dataDirectory = server.dataDirectory;
    await server.call('PUT', '/v1/kpis/oee', oeeKpi());
    expect(fs.existsSync(path.join(dataDirectory, 'state', 'kpi.db'))).toBe(true);
    await server.close();
    server = await startTestServer({ dataDirectory });
    expect((await server.call('GET', '/v1/kpis/oee')).json.response).toEqual(oeeKpi());
    await server.call('DELETE', '/v1/kpis/oee');
  });

  it('answers 405 for a wrong method and is described in the OpenAPI document', async () => {
    expect((await server.call('POST', '/v1/kpis/oee', oeeKpi())).status).toBe(405);
    const doc = (await server.call('GET', '/v1/openapi.json')).json;
    expect(Object.keys(doc.paths['/v1/kpis/{name}'])).toEqual(['get', 'put', 'delete']);
    expect(doc.paths['/v1/kpis/validate'].post.parameters.map((p: any) => p.name)).toContain('kind');
  });
});

describe('POST /v1/kpis/evaluate (requests)', () => {
  it('evaluates a draft over empty history: every bin null and neutral', async () => {
    const { status, json } = await server.call('POST', '/v1/kpis/evaluate', {
      definition: availabilityKpi(),
      machines: ['Press_1'],
      start: '2026-01-05T06:00:00Z',
      end: '2026-01-05T08:00:00Z',
      bin_size: '1h',
    });
    expect(status).toBe(200);
    expect(json.response).toMatchObject({ name: 'availability', kind: 'machine_type', bin_size_seconds: 3600, start: '2026-01-05T06:00:00.000000Z', good_threshold: 80, directionality: 'positive' });
    expect(json.response.machines[0].bins.map((b: any) => [b.start, b.value, b.status])).toEqual([
      ['2026-01-05T06:00:00.000000Z', null, 'neutral'],
      ['2026-01-05T07:00:00.000000Z', null, 'neutral'],
    ]);
  });

  it.each([
    [{ machines: ['x'] }, 400, /either "name"/],
    [{ name: 'a', definition: {} }, 400, /not both/],
    [{ name: 'nothing_here' }, 404, /no KPI "nothing_here"/],
    [{ definition: availabilityKpi(), start: 'yesterday' }, 400, /start must be a UTC time/],
    [{ definition: availabilityKpi(), start: '2026-01-05T08:00:00Z', end: '2026-01-05T06:00:00Z' }, 400, /before end/],
    [{ definition: availabilityKpi(), bin_size: '5 fortnights' }, 400, /bin_size/],
    [{ definition: availabilityKpi(), bin_size: 1, start: '2026-01-01T00:00:00Z', end: '2026-01-05T00:00:00Z' }, 400, /more than 10000 bins/],
    [{ definition: availabilityKpi(), machine: 'x' }, 400, /not valid/],
  ])('refuses %j', async (body, status, text) => {
    const reply = await server.call('POST', '/v1/kpis/evaluate', body);
    expect(reply.status).toBe(status);
    expect(reply.json.success).toBe(false);
    expect(reply.json.error.text).toMatch(text);
  });

  it('refuses an invalid draft with 422 and its violations', async () => {
    const reply = await server.call('POST', '/v1/kpis/evaluate', { definition: { ...availabilityKpi(), formula: 'up_time +' } });
    expect(reply.status).toBe(422);
    expect(reply.json.response.violations[0].json_path).toEqual(['formula']);
  });
});
