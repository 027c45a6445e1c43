/**
 * What an OPC UA server sends is bounded per value (issue 39): a text of megabytes or an array of
 * hundreds of thousands of elements is recorded as empty with an `unsupported_value` marker naming
 * the tag, the other tags go on, and the agent keeps answering (a real node-opcua server).
 */
import { DataType } from 'node-opcua';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MAX_TEXT_CHARS } from '../agent/receivers/opcua/values.js';
import { waitFor } from '../testing/file-plant.js';
import { type Agent, startAgent } from '../testing/opcua/opcua-plant.js';
import { OpcuaTestServer } from '../testing/opcua/opcua-test-server.js';
import { tempDirectory } from '../testing/test-host.js';

let plc: OpcuaTestServer;
let agent: Agent | undefined;

beforeAll(async () => {
  plc = await OpcuaTestServer.start({ pkiFolder: tempDirectory('opcua-server-pki-') });
}, 60_000);
afterAll(async () => {
  await plc?.stop();
});
afterEach(async () => {
  await agent?.close();
  agent = undefined;
});

describe('hostile OPC UA values', () => {
  it('records a text of 4 MB and an array of 200,000 values as empty with a marker naming the tag, and reads on', async () => {
    const tags = ['String', 'Zones', 'Double'].map((n) => ({ name: `ns=2;s=${n}`, exportname: n.toLowerCase() }));
    agent = await startAgent({ connection: { host: '127.0.0.1', port: plc.port }, streams: [{ asset: 'Line_1', stream_type: 'process', opcua_tags: tags }] });
    await waitFor(() => agent!.valuesOf('string').length > 0, 20_000, 'first values');
    plc.set('String', 'x'.repeat(4 * 1024 * 1024));
    plc.set('Zones', new Float64Array(200_000), { dataType: DataType.Double, array: true });
    const marker = await agent.marker('unsupported_value');
    expect(marker.message).toContain(`ns=2;s=String`);
    expect(marker.message).toContain(`a String of ${4 * 1024 * 1024} characters (at most ${MAX_TEXT_CHARS} characters are read)`);
    expect(marker.message).toContain('an array of 200000 Double values');
    plc.set('Double', 99.5);
    plc.set('String', 'Running again');
    await waitFor(() => agent!.records.some((r) => r.fieldvalues.double === 99.5), 20_000, 'the next value of another tag');
    await waitFor(() => agent!.records.some((r) => r.fieldvalues.string === 'Running again'), 20_000, 'the tag readable again');
    expect(agent.records.some((r) => typeof r.fieldvalues.string === 'string' && r.fieldvalues.string.length > MAX_TEXT_CHARS)).toBe(false);
    const reply = await fetch(`${agent.server.url}/v1/status`, { headers: { Authorization: `Bearer ${agent.server.token}` }, signal: AbortSignal.timeout(1000) });
    expect(reply.status).toBe(200);
    expect(await agent.serviceStatus()).toBe('running');
  }, 90_000);
});
