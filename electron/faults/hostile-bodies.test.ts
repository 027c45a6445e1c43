/**
 * Fault suite: bodies an attacker holding the token could send, cheap to make and under the 8 MiB
 * limit. Each gets a clear answer in the envelope, the API keeps answering status within a second
 * meanwhile, and the data flowing through the agent loses no row. Generated configurations and JSON
 * (fast-check) run a bounded number of times.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filePlant, waitFor } from '../testing/file-plant.js';
import { type TestServer, startTestServer } from '../testing/test-host.js';

let server: TestServer;
let plant: ReturnType<typeof filePlant>;
let savedConfig: unknown;
const HEADER = 'time,part,force\n';
const rows = (from: number, to: number) => Array.from({ length: to - from }, (_, k) => `2026-01-05 06:00:00,${from + k},1.5\n`).join('');

beforeAll(async () => {
  server = await startTestServer();
  plant = filePlant();
  expect((await server.call('POST', '/v1/config', plant.config)).status).toBe(200);
  savedConfig = (await server.call('GET', '/v1/config')).json.response;
  plant.write('press_1.csv', HEADER + rows(0, 500));
});
afterAll(async () => {
  await server.close();
});

/**
 * Sends `request` while asking for status every 20 ms; returns its answer and the slowest status
 * answer seen meanwhile.
 */
async function underLoad<T>(request: () => Promise<T>): Promise<{ answer: T; slowestStatus: number }> {
  let done = false;
  let slowest = 0;
  const poller = (async () => {
    while (!done) {
      const before = performance.now();
      expect((await server.call('GET', '/v1/status')).status).toBe(200);
      slowest = Math.max(slowest, performance.now() - before);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  try {
    return { answer: await request(), slowestStatus: slowest };
  } finally {
    done = true;
    await poller;
  }
}

describe('hostile bodies', () => {
  it('answers 5 MB of 1.7 million empty transmits with 413 while status keeps answering', async () => {
    const body = `{"data_transmit":[${'{},'.repeat(1_699_999)}{}]}`;
    const { answer, slowestStatus } = await underLoad(() => server.call('POST', '/v1/config', body));
    expect(answer.status).toBe(413);
    expect(answer.json.error.text).toMatch(/more than 600,000 values/);
    expect(slowestStatus).toBeLessThan(1000);
  });

  it('answers thousands of broken receivers with at most 200 violations and a summary', async () => {
    const receivers = Array.from({ length: 2000 }, (_, i) => Object.fromEntries(Array.from({ length: 12 }, (_, k) => [`unknown_field_${k}`, i])));
    const body = JSON.stringify({ data_receiver: receivers, data_transmit: [] });
    expect(body.length).toBeGreaterThan(300_000);
    const { answer, slowestStatus } = await underLoad(() => server.call('POST', '/v1/config', body));
    expect(answer.status).toBe(422);
    const violations = answer.json.response.violations;
    expect(violations).toHaveLength(201);
    expect(violations[200].description).toMatch(/^… and [\d,]+ more \([\d,]+ error\(s\)/);
    expect(JSON.stringify(answer.json).length).toBeLessThan(100_000);
    expect(slowestStatus).toBeLessThan(1000);
  });

  it('refuses more receivers than the limit at their list, without looking at each', async () => {
    const body = JSON.stringify({ data_receiver: Array.from({ length: 6000 }, () => ({})), data_transmit: [] });
    const { status, json } = await server.call('POST', '/v1/config/validate', body);
    expect(status).toBe(200);
    expect(json.response).toEqual({ status: 'failed', violations: [expect.objectContaining({ json_path: ['data_receiver'], level: 'error', description: expect.stringMatching(/^data_receiver has 6,000 entries; Tributary takes at most 5,000/) })] });
  });

  it('validates the largest accepted configuration (5,000 receivers) off the API thread', async () => {
    const receivers = Array.from({ length: 5000 }, (_, i) => ({
      data_receiver_name: `r${i}`,
      protocol: 'localfile',
      connections: [{ root_path: `/data/m${i}` }],
      streams: [{ asset: `M${i}`, stream_type: 'cycle', file_filter: ['*.csv'] }],
      parsers: [{ parser_name: 'csv', parser_type: 'spreadsheet', options: { localtz: 'Europe/Berlin' } }],
    }));
    // One transmit takes every stream: without it each stream would be warned about (records sent nowhere).
    const transmits = [{ transmit_name: 'archive', transmit_type: 'csv', directory: 'archive' }];
    const { answer, slowestStatus } = await underLoad(() => server.call('POST', '/v1/config/validate', { data_receiver: receivers, transforms: [], data_transmit: transmits }));
    expect(answer.json.response).toMatchObject({ status: 'passed', violations: [] });
    // What saving it would do: start every one of them (none of them runs).
    expect(answer.json.response.changes.start).toHaveLength(5000);
    expect(slowestStatus).toBeLessThan(1000);
  });

  it('answers a restream of 200,000 unknown streams at once, and names a few of 20,000', async () => {
    const huge = JSON.stringify({ plant: Array.from({ length: 200_000 }, (_, i) => ({ asset: `A${i}`, stream_type: 'x' })) });
    const { answer, slowestStatus } = await underLoad(() => server.call('POST', '/v1/restream', huge));
    expect(answer.status).toBe(413);
    expect(slowestStatus).toBeLessThan(1000);
    const tooMany = await server.call('POST', '/v1/restream', { plant: Array.from({ length: 40_000 }, (_, i) => ({ asset: `A${i}`, stream_type: 'x' })) });
    expect(tooMany.status).toBe(400);
    expect(tooMany.json.error.text).toMatch(/names 40,000 streams; a configuration holds at most 20,000/);
    const many = { plant: Array.from({ length: 20_000 }, (_, i) => ({ asset: `A${i}`, stream_type: 'x' })) };
    const unknown = await underLoad(() => server.call('POST', '/v1/restream', many));
    expect(unknown.answer.status).toBe(500);
    expect(unknown.answer.json.response).toMatch(/^Nothing was restreamed: not configured: stream "A0:x" of receiver "plant", .* and 19980 more\.$/);
    expect(unknown.answer.json.response.length).toBeLessThan(2000);
    expect(unknown.slowestStatus).toBeLessThan(1000);
  });

  it('answers generated JSON and generated configurations with an envelope, never a 500', async () => {
    const base = plant.config as Record<string, unknown>;
    const hostileKey = fc.constantFrom('__proto__', 'constructor', 'prototype', 'data_receiver', 'streams', 'password', '********', '');
    const value = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: 'small' }, fc.jsonValue({ maxDepth: 2 }), fc.array(tie('node'), { maxLength: 4 }), fc.dictionary(fc.oneof(hostileKey, fc.string()), tie('node'), { maxKeys: 4 })),
    })).node;
    // A valid configuration with one place replaced by something generated.
    const mutated = fc.tuple(fc.constantFrom('data_receiver', 'transforms', 'data_transmit', 'extra'), value, fc.nat(3)).map(([section, replacement, index]) => {
      const doc = structuredClone(base) as Record<string, unknown>;
      const list = doc[section];
      if (Array.isArray(list) && list.length > 0) list[index % list.length] = replacement;
      else doc[section] = replacement;
      return JSON.stringify(doc);
    });
    const text = fc.oneof(mutated, value.map((v) => JSON.stringify(v)), fc.string({ maxLength: 50 }));
    await fc.assert(
      fc.asyncProperty(text, fc.constantFrom('/v1/config/validate', '/v1/config', '/v1/restream', '/v1/kpis/validate'), async (body, route) => {
        // Saves go to validate instead: a generated configuration that happens to be valid must not replace the plant's.
        const target = route === '/v1/config' ? '/v1/config/validate' : route;
        const { status, json } = await server.call('POST', target, body);
        expect([200, 400, 413, 422, 500].includes(status)).toBe(true);
        expect(typeof json.success).toBe('boolean');
        // 500 is the spec's answer for a restream naming what is not configured; nothing else may be one.
        if (status === 500) expect(target).toBe('/v1/restream');
      }),
      { numRuns: 150 },
    );
    expect((await server.call('GET', '/v1/status')).json.response.agent.status).toBe('running');
  });

  it('loses no row of the data flowing meanwhile, and keeps the saved configuration', async () => {
    plant.append('press_1.csv', rows(500, 800));
    plant.write('press_2.csv', HEADER + rows(800, 1000));
    await waitFor(() => new Set(plant.delivered('Press_1', 'cycle').map((r) => r.part)).size === 1000, 30_000, 'all 1000 rows');
    expect((await server.call('GET', '/v1/config')).json.response).toEqual(savedConfig);
    expect((await server.call('GET', '/v1/status')).json.response.agent.status).toBe('running');
  });
});
