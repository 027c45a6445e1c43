import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CONFIG_BODY_LIMITS, FORBIDDEN_KEYS, JSON_BODY_LIMITS, checkJsonValue, jsonBodyLimitsFor, parseJsonBody } from './json-body.js';

const noPause = () => Promise.resolve();
const parse = (text: string, limits = { maxDepth: 64, maxValues: 150_000 }) => parseJsonBody(text, limits, noPause);

/** Reference: values, deepest nesting and forbidden keys of a parsed value, by plain recursion. */
function measure(value: unknown, depth = 0): { values: number; depth: number; forbidden: boolean } {
  if (value === null || typeof value !== 'object') return { values: 1, depth, forbidden: false };
  const children = Array.isArray(value) ? value : Object.values(value);
  const forbidden = !Array.isArray(value) && Object.keys(value).some((k) => FORBIDDEN_KEYS.has(k));
  return children.map((c) => measure(c, depth + 1)).reduce((a, b) => ({ values: a.values + b.values, depth: Math.max(a.depth, b.depth), forbidden: a.forbidden || b.forbidden }), { values: 1, depth: depth + 1, forbidden });
}

describe('request bodies', () => {
  it('reads any JSON value exactly as JSON.parse does, refusing only what breaks a limit or a forbidden key', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 6 }), fc.boolean(), async (value, pretty) => {
        const text = JSON.stringify(value, null, pretty ? 2 : undefined);
        const expected = measure(JSON.parse(text));
        const result = await parse(text);
        if (expected.forbidden) expect(result).toMatchObject({ ok: false, status: 400 });
        else expect(result).toEqual({ ok: true, value: JSON.parse(text) });
        if (!expected.forbidden) {
          expect(await parse(text, { maxDepth: 64, maxValues: expected.values })).toMatchObject({ ok: true });
          if (expected.values > 1) expect(await parse(text, { maxDepth: 64, maxValues: expected.values - 1 })).toMatchObject({ ok: false, status: 413 });
          if (expected.depth > 0) expect(await parse(text, { maxDepth: expected.depth - 1, maxValues: 1e6 })).toMatchObject({ ok: false, status: 400 });
        }
      }),
      { numRuns: 300 },
    );
  });

  it('never throws on arbitrary text: a value, or 400/413 with a message', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string({ unit: 'grapheme', maxLength: 200 }), fc.jsonValue().map((v) => JSON.stringify(v).slice(0, -1))), async (text) => {
        const result = await parse(text);
        if (result.ok) expect(result.value).toEqual(JSON.parse(text.replace(/^\uFEFF/, '')));
        else {
          expect([400, 413]).toContain(result.status);
          expect(result.message.length).toBeGreaterThan(10);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('refuses __proto__ and constructor keys anywhere, also written with escapes, and says where', async () => {
    const nested = await parse('{"data_receiver": [{"streams": [{"__proto__": {"x": 1}}]}]}');
    expect(nested).toEqual({ ok: false, status: 400, message: expect.stringContaining('"__proto__" is not allowed (at ["data_receiver",0,"streams",0])') });
    expect(await parse('{"\\u005f_proto__": {}}')).toMatchObject({ ok: false, status: 400 });
    expect(await parse('{"a": {"constructor": {"prototype": 1}}}')).toMatchObject({ ok: false, status: 400, message: expect.stringContaining('"constructor"') });
    // As values, these words are plain text.
    expect(await parse('{"name": "__proto__", "list": ["constructor"]}')).toMatchObject({ ok: true });
  });

  it('accepts a UTF-8 byte order mark before the JSON', async () => {
    expect(await parse('\uFEFF{"a": [1, 2]}')).toEqual({ ok: true, value: { a: [1, 2] } });
  });

  it('refuses 10,000 levels of nesting with 400 before parsing', async () => {
    expect(await parse(`${'['.repeat(10_000)}${']'.repeat(10_000)}`)).toMatchObject({ ok: false, status: 400, message: expect.stringContaining('deeper than 64') });
  });

  it('refuses millions of empty objects with 413 without building them, pausing as it reads', async () => {
    let pauses = 0;
    const text = `{"data_transmit":[${'{},'.repeat(1_700_000)}{}]}`;
    const result = await parseJsonBody(text, undefined, async () => {
      pauses += 1;
    });
    expect(result).toMatchObject({ ok: false, status: 413 });
    // Refused after the first values past the limit: a fraction of the 5 MB was read.
    expect(pauses).toBeLessThan(5);
  });

  it('checks values that arrive already built (IPC) against the same limits', () => {
    expect(checkJsonValue({ a: [1, { b: null }] })).toBeUndefined();
    expect(checkJsonValue(JSON.parse('{"x": {"__proto__": 1}}'))).toMatchObject({ ok: false, status: 400 });
    let deep: unknown = 1;
    for (let i = 0; i < 100; i += 1) deep = [deep];
    expect(checkJsonValue(deep)).toMatchObject({ ok: false, status: 400 });
    expect(checkJsonValue({ list: new Array(200_000).fill(0) })).toMatchObject({ ok: false, status: 413 });
  });

  it('gives configuration bodies 600,000 values and every other body 150,000 (decision 0053)', () => {
    for (const path of ['/v1/config', '/v1/config/', '/v1/config/validate', '/v1/config/preview']) expect(jsonBodyLimitsFor('POST', path)).toBe(CONFIG_BODY_LIMITS);
    for (const [method, path] of [['POST', '/v1/kpis/validate'], ['POST', '/v1/restream'], ['GET', '/v1/config'], ['POST', '/v1/config/history']] as const)
      expect(jsonBodyLimitsFor(method, path)).toBe(JSON_BODY_LIMITS);
    expect(CONFIG_BODY_LIMITS).toEqual({ maxDepth: JSON_BODY_LIMITS.maxDepth, maxValues: 600_000 });
    // The IPC adapter applies the same choice to bodies that arrive built.
    const list = { data_transmit: new Array(200_000).fill(0) };
    expect(checkJsonValue(list, jsonBodyLimitsFor('POST', '/v1/config'))).toBeUndefined();
    expect(checkJsonValue(list, jsonBodyLimitsFor('POST', '/v1/kpis/validate'))).toMatchObject({ ok: false, status: 413 });
  });
});
