/**
 * Decision 0053: a configuration may hold 600,000 JSON values, enough for a 50,000-tag OPC UA line
 * (~160,000 values) that the 150,000 of every other body refused. One more value is a 413 that says
 * the limit; other routes keep theirs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, startTestServer } from '../testing/test-host.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

/** A line of `machines` machines with `perMachine` tags each, as bench/opcua.mjs configures it. */
function opcuaLine(machines: number, perMachine: number) {
  const streams = Array.from({ length: machines }, (_, m) => ({
    asset: `Machine_${m}`,
    stream_type: 'process',
    opcua_tags: Array.from({ length: perMachine }, (_, t) => ({ name: `ns=2;s=M${m}_T${t}`, exportname: `M${m}_T${t}` })),
  }));
  // Port 9 on loopback: nothing answers, the receiver just keeps trying.
  const receiver = { data_receiver_name: 'line', protocol: 'opcua', read_mode: 'subscription', sampling_interval_ms: 5000, connections: [{ host: '127.0.0.1', port: 9, timeout: 10 }], streams };
  return { data_receiver: [receiver], transforms: [], data_transmit: [] };
}

/** `{"data_transmit":[{},{},…]}` with exactly `values` JSON values (the document, the list, the objects). */
const emptyTransmits = (values: number) => `{"data_transmit":[${'{},'.repeat(values - 3)}{}]}`;

describe('large configuration bodies', () => {
  it('validates and saves a 50,000-tag OPC UA line through the API', async () => {
    const config = opcuaLine(100, 500);
    const validation = await server.call('POST', '/v1/config/validate', config);
    expect(validation.status).toBe(200);
    // Passed; its only words are the warnings that no transmit sends the 100 streams (issue 56).
    expect(validation.json.response.status).toBe('passed');
    const violations = validation.json.response.violations as { level: string; description: string }[];
    expect(violations.filter((v) => v.level !== 'warning' || !/No transmit sends|no transmit/i.test(v.description))).toEqual([]);
    const saved = await server.call('POST', '/v1/config', config);
    expect(saved.status).toBe(200);
    const read = await server.call('GET', '/v1/config');
    const streams = read.json.response.data_receiver[0].streams as { opcua_tags: unknown[] }[];
    expect(streams.reduce((sum, stream) => sum + stream.opcua_tags.length, 0)).toBe(50_000);
  }, 60_000);

  it('refuses a configuration of 600,001 values with 413 naming the limit, and takes 600,000', async () => {
    const over = await server.call('POST', '/v1/config/validate', emptyTransmits(600_001));
    expect(over.status).toBe(413);
    expect(over.json.error.text).toMatch(/more than 600,000 values/);
    // At the limit the body is read; the configuration's own limits judge it (100 transmits at most).
    const at = await server.call('POST', '/v1/config/validate', emptyTransmits(600_000));
    expect(at.status).toBe(200);
    expect(at.json.response.violations[0].description).toMatch(/^data_transmit has 599,998 entries; Tributary takes at most 100/);
  }, 60_000);

  it('keeps 150,000 values for bodies that are no configuration', async () => {
    const kpi = await server.call('POST', '/v1/kpis/validate', `{"x":[${'0,'.repeat(149_999)}0]}`);
    expect(kpi.status).toBe(413);
    expect(kpi.json.error.text).toMatch(/more than 150,000 values/);
  });
});
