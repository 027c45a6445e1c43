import { StatusCodes } from 'node-opcua';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../../../testing/file-plant.js';
import { tempDirectory } from '../../../testing/test-host.js';
import { type Agent, startAgent } from '../../../testing/opcua/opcua-plant.js';
import { OpcuaTestServer } from '../../../testing/opcua/opcua-test-server.js';

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

const tags = (...names: string[]) => names.map((n) => ({ name: `ns=2;s=${n}`, exportname: n.toLowerCase() }));
const connection = () => ({ host: '127.0.0.1', port: plc.port });

describe('opcua receiver (subscription)', () => {
  it('records each data type with its source timestamp and status', async () => {
    const stamp = new Date('2026-03-01T10:00:00.250Z');
    agent = await startAgent({ connection: connection(), streams: [{ asset: 'Line_1', stream_type: 'process', opcua_tags: tags('Bool', 'Int32', 'Int64', 'UInt16', 'Float', 'Double', 'String', 'DateTime') }] });
    await waitFor(() => agent!.valuesOf('string').length > 0, 20_000, 'first values');
    for (const [name, value] of [['Bool', false], ['Int32', 7], ['Double', 3.25], ['String', 'Stopped']] as const) plc.set(name, value, { sourceTimestamp: stamp });
    const record = await waitFor(() => agent!.records.find((r) => r.timestamp === '2026-03-01T10:00:00.250000Z' && r.fieldvalues.string === 'Stopped' && r.fieldvalues.bool === false && r.fieldvalues.double !== null && r.fieldvalues.int32 !== null), 20_000, 'the changed values in one record');
    expect(record.fieldvalues).toMatchObject({ bool: false, bool_status: 'Good', int32: 7, int32_status: 'Good', double: 3.25, string: 'Stopped', string_status: 'Good' });
    // Tags without a value at that moment are present and empty, not carried forward.
    expect(record.fieldvalues.float).toBeNull();
    expect(record.fieldvalues.float_status).toBeNull();
    const all = agent.records;
    const first = (column: string) => all.find((r) => r.fieldvalues[column] !== null)!.fieldvalues[column];
    expect(first('int64')).toBe(7);
    expect(first('uint16')).toBe(65535);
    expect(first('float')).toBe(1.5);
    expect(first('datetime')).toBe('2026-01-05T06:00:00.123000Z');
    expect(await agent.serviceStatus()).toBe('running');
  });

  it('flattens small arrays into columns and rejects large ones with a marker', async () => {
    agent = await startAgent({ connection: connection(), streams: [{ asset: 'Oven', stream_type: 'zones', opcua_tags: tags('Zones', 'Profile') }] });
    const record = await waitFor(() => agent!.records.find((r) => r.fieldvalues.zones_0 !== undefined), 20_000, 'array values');
    expect(record.fieldvalues).toMatchObject({ zones_0: 180.5, zones_1: 181, zones_2: 182.5, zones_status: 'Good' });
    const marker = await agent.marker('unsupported_value');
    expect(marker.message).toContain('profile (ns=2;s=Profile)');
    expect(marker.message).toContain('100');
    const profile = agent.records.find((r) => r.fieldvalues.profile_status === 'Good')!;
    expect(profile.fieldvalues.profile).toBeNull();
    expect(profile.fieldvalues.profile_0).toBeUndefined();
  });

  it('reads tags written the product family\'s way: a bare name with namespace_index', async () => {
    agent = await startAgent({ connection: connection(), streams: [{ asset: 'Line_1', stream_type: 'process', opcua_tags: [{ name: 'Double', namespace_index: 2, exportname: 'double' }, { name: 'Missing.Tag', namespace_index: 2, exportname: 'missing' }] }] });
    await waitFor(() => agent!.valuesOf('double').length > 0, 20_000, 'values of ns=2;s=Double');
    // The marker names the node id the name and namespace_index make.
    expect((await agent.marker('node_not_found')).message).toContain('missing (ns=2;s=Missing.Tag)');
  });

  it('names a node id that does not exist and reads the other tags', async () => {
    agent = await startAgent({ connection: connection(), streams: [{ asset: 'Line_1', stream_type: 'process', opcua_tags: [...tags('Double'), { name: 'ns=2;s=Line9.Missing', exportname: 'missing' }] }] });
    const marker = await agent.marker('node_not_found');
    expect(marker.message).toContain('missing (ns=2;s=Line9.Missing): BadNodeIdUnknown');
    await waitFor(() => agent!.valuesOf('double').length > 0, 20_000, 'the good tag');
    expect(agent.records.every((r) => r.fieldvalues.missing === null)).toBe(true);
  });

  it('marks bad-quality values with their status instead of passing them as good', async () => {
    agent = await startAgent({ connection: connection(), streams: [{ asset: 'Line_1', stream_type: 'process', opcua_tags: tags('Counter') }] });
    await waitFor(() => agent!.valuesOf('counter').length > 0, 20_000, 'first value');
    plc.set('Counter', 5, { status: StatusCodes.BadSensorFailure });
    const bad = await waitFor(() => agent!.records.find((r) => r.fieldvalues.counter_status === 'BadSensorFailure'), 20_000, 'the bad value');
    expect(bad.fieldvalues.counter_status).toBe('BadSensorFailure');
    const marker = await agent.marker('bad_quality');
    expect(marker.level).toBe('warning');
    expect(marker.message).toContain('counter (ns=2;s=Counter): BadSensorFailure');
    plc.set('Counter', 6);
    await waitFor(async () => (await agent!.markers('bad_quality')).length === 0, 20_000, 'the marker to clear');
  });

  it('a server that refuses the subscription (BadTooManySubscriptions) gets a marker, not a crash, and is read once it takes one', async () => {
    plc.refuseSubscriptions(true);
    try {
      agent = await startAgent({ connection: connection(), streams: [{ asset: 'Line_1', stream_type: 'process', opcua_tags: tags('Counter') }] });
      const marker = await waitFor(async () => (await agent!.markers('connection_lost')).find((m) => m.message.includes('BadTooManySubscriptions')), 30_000, 'the refusal named');
      expect(marker.message).toContain(plc.url);
    } finally {
      plc.refuseSubscriptions(false);
    }
    await waitFor(() => agent!.valuesOf('counter').length > 0, 30_000, 'values once the server takes the subscription');
    expect(await agent.serviceStatus()).toBe('running');
  }, 60_000);

  it('recovers after a server restart: marker while down, nothing invented, later values all recorded', async () => {
    agent = await startAgent({ connection: connection(), streams: [{ asset: 'Line_1', stream_type: 'process', opcua_tags: tags('Counter') }] });
    await waitFor(() => agent!.valuesOf('counter').length > 0, 20_000, 'first value');
    await plc.stop();
    const marker = await agent.marker('connection_lost');
    expect(marker.message).toContain(plc.url);
    expect(await agent.serviceStatus()).toBe('unknown');
    const countWhileDown = agent.records.length;
    // A reconnect attempt failed meanwhile (the marker says so): the receiver went on while the
    // server was down and recorded nothing for the gap.
    await waitFor(async () => (await agent!.markers('connection_lost')).some((m) => m.message.startsWith('No connection to')), 30_000, 'a failed reconnect attempt');
    expect(agent.records.length).toBe(countWhileDown);
    await plc.restart();
    await waitFor(async () => (await agent!.markers('connection_lost')).length === 0, 30_000, 'reconnection');
    await waitFor(async () => (await agent!.serviceStatus()) === 'running', 10_000, 'running again');
    // Each value once the previous one is recorded, so that sampling sees every one of them.
    for (let i = 100; i < 110; i += 1) {
      plc.set('Counter', i);
      await waitFor(() => agent!.valuesOf('counter').some((r) => r.fieldvalues.counter === i), 20_000, `value ${i} after the restart`);
    }
    const after = agent.valuesOf('counter').map((r) => r.fieldvalues.counter).filter((v) => (v as number) >= 100);
    expect(after).toEqual([100, 101, 102, 103, 104, 105, 106, 107, 108, 109]);
  }, 90_000);
});

describe('opcua receiver (polling)', () => {
  it('reads all tags every poll_interval and records a value once, not once per poll', async () => {
    agent = await startAgent({ read_mode: 'polling', poll_interval: 1, connection: connection(), streams: [{ asset: 'Line_1', stream_type: 'process', opcua_tags: [...tags('Double', 'String'), { name: 'ns=2;s=Nope', exportname: 'nope' }] }] });
    const stamp = new Date('2026-03-02T08:00:00.000Z');
    plc.set('Double', 42.5, { sourceTimestamp: stamp });
    const record = await waitFor(() => agent!.records.find((r) => r.fieldvalues.double === 42.5), 20_000, 'polled value');
    expect(record.timestamp).toBe('2026-03-02T08:00:00.000000Z');
    expect((await agent.marker('node_not_found')).message).toContain('nope (ns=2;s=Nope)');
    // Two more polls read the same value (the server counts them): it is still recorded once.
    const reads = plc.readRequests;
    await waitFor(() => plc.readRequests >= reads + 2, 10_000, 'two more polls');
    expect(agent.records.filter((r) => r.fieldvalues.double === 42.5)).toHaveLength(1);
  });
});
