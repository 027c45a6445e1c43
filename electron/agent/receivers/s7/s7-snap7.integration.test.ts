/**
 * The s7 receiver against an independent S7 server: Snap7's (npm node-snap7, C++), started by the
 * test on 127.0.0.1 and a port of its own, holding the bytes of electron/testing/s7/snap7-server.ts.
 * Every address type is compared with what the server holds; a missing data block, a range beyond
 * a block's end and a server restart are met as a plant engineer would meet them.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { csvOutboxRows, waitFor } from '../../../testing/file-plant.js';
import { freePort } from '../../../testing/modbus/pymodbus-server.js';
import { PLANT_VALUES, Snap7Plant } from '../../../testing/s7/snap7-server.js';
import { type TestServer, startTestServer, tempDirectory } from '../../../testing/test-host.js';

const column = (address: string) => address.replace(/[^A-Za-z0-9]/g, '_');

const allTypes = {
  asset: 'Oven_4',
  stream_type: 'all_types',
  s7_tags: PLANT_VALUES.map((v) => ({ exportname: column(v.address), address: v.address })),
};

/** A value of a data block the PLC does not have, beside one it has. */
const withMissingBlock = {
  asset: 'Oven_4',
  stream_type: 'partly_missing',
  s7_tags: [
    { exportname: 'temp', address: 'DB1,REAL0' },
    { exportname: 'missing', address: 'DB2,INT0' },
  ],
};

function configuration(port: number, streams: unknown[], directory = tempDirectory('tributary-s7-out-')) {
  return {
    data_receiver: [{ data_receiver_name: 'oven_s7', protocol: 's7', poll_interval: 1, connections: [{ host: '127.0.0.1', port, rack: 0, slot: 1, timeout: 2 }], streams }],
    transforms: [],
    data_transmit: [{ transmit_name: 'archive', transmit_type: 'csv', filter_stream: ['*'], directory, poll_interval: 1 }],
  };
}

type StreamState = { asset: string; stream_type: string; markers: { category: string; message: string; level: string }[] };

let server: TestServer | undefined;
let plc: Snap7Plant | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  await plc?.stop();
  plc = undefined;
});

async function startPlc(): Promise<Snap7Plant> {
  plc = new Snap7Plant(await freePort());
  await plc.start();
  return plc;
}

describe('s7 receiver against Snap7', () => {
  it('previews every address type as the server holds it, in one job', async () => {
    const { port } = await startPlc();
    server = await startTestServer();
    const reply = await server.call('POST', '/v1/config/preview', { configuration: configuration(port, [allTypes]) });
    expect(reply.status, JSON.stringify(reply.json)).toBe(200);
    const [stream] = reply.json.response.streams;
    expect(stream.problems).toEqual([]);
    expect(stream.records).toHaveLength(1);
    const values = stream.records[0].fieldvalues;
    for (const entry of PLANT_VALUES) expect(values[column(entry.address)], entry.address).toEqual(entry.value);
    expect(stream.source).toContain(`s7://PLC 127.0.0.1:${port} (rack 0, slot 1), PDU 960 bytes, 1 of 1 job per poll`);
    expect(stream.source).toContain('DB1, bytes 0–47');
  });

  it('splits a range the PLC refuses past the end of a block, so only that value is missing', async () => {
    const { port } = await startPlc();
    server = await startTestServer();
    const edge = { asset: 'Oven_4', stream_type: 'block_end', s7_tags: [{ exportname: 'inside', address: 'DB3,INT2' }, { exportname: 'beyond', address: 'DB3,INT6' }] };
    const reply = await server.call('POST', '/v1/config/preview', { configuration: configuration(port, [edge]) });
    const [stream] = reply.json.response.streams;
    expect(stream.records[0].fieldvalues).toEqual({ inside: 42, beyond: null });
    expect(stream.problems).toEqual([{ level: 'error', message: expect.stringMatching(/^DB3,INT6 \(beyond, DB3, bytes 6–7\): the PLC answered return code 0x05 \(address out of range\)\..*Optimized block access/) }]);
  });

  it('marks the stream of a missing data block with the address, the answer and what to change, and the other streams go on', async () => {
    const { port } = await startPlc();
    const directory = tempDirectory('tributary-s7-out-');
    server = await startTestServer();
    const saved = await server.call('POST', '/v1/config', configuration(port, [allTypes, withMissingBlock], directory));
    expect(saved.json.success, JSON.stringify(saved.json)).toBe(true);
    await waitFor(() => csvOutboxRows(directory, 'Oven_4', 'partly_missing').length >= 2, 20_000, 'records of the partly refused stream');
    expect(csvOutboxRows(directory, 'Oven_4', 'partly_missing')[0]).toMatchObject({ temp: '21.5', missing: '' });
    await waitFor(() => csvOutboxRows(directory, 'Oven_4', 'all_types').length >= 2, 20_000, 'records of the other stream');
    expect(csvOutboxRows(directory, 'Oven_4', 'all_types')[0]).toMatchObject({ DB1_REAL0: '21.5', MW10: '513', DB1_S20_16: 'Hello' });
    const streams = (await server.call('GET', '/v1/streams')).json.response as StreamState[];
    const marked = streams.find((s) => s.stream_type === 'partly_missing')!;
    expect(marked.markers).toEqual([expect.objectContaining({ category: 's7_refused', level: 'error' })]);
    expect(marked.markers[0]!.message).toMatch(/^DB2,INT0 \(missing, DB2, byte(s)? 0(–1)?\): the PLC answered return code 0x0a \(object does not exist\)\. DB2 does not exist/);
    expect(marked.markers[0]!.message).toContain('Optimized block access');
    expect(streams.find((s) => s.stream_type === 'all_types')!.markers).toEqual([]);
  }, 60_000);

  it('is degraded with the reason while the PLC is down, and reads again by itself after a restart', async () => {
    const device = await startPlc();
    const directory = tempDirectory('tributary-s7-out-');
    server = await startTestServer();
    const saved = await server.call('POST', '/v1/config', configuration(device.port, [allTypes], directory));
    expect(saved.json.success, JSON.stringify(saved.json)).toBe(true);
    const rows = () => csvOutboxRows(directory, 'Oven_4', 'all_types').length;
    await waitFor(() => rows() >= 1, 20_000, 'the first record');

    await device.stop();
    const service = async () => (await server!.call('GET', '/v1/status')).json.response.agent.services['receiver:oven_s7'];
    const degraded = await waitFor(async () => {
      const streams = (await server!.call('GET', '/v1/streams')).json.response as StreamState[];
      return streams.flatMap((s) => s.markers).find((m) => ['connection_lost', 'connect_failed', 'no_answer'].includes(m.category));
    }, 20_000, 'a connection marker');
    expect(degraded.message).toContain(`PLC 127.0.0.1:${device.port}`);
    expect(await service()).toMatchObject({ health: 'degraded', reason: expect.stringContaining(`127.0.0.1:${device.port}`) });
    const before = rows();

    await device.start();
    await waitFor(() => rows() > before + 1, 40_000, 'records after the PLC came back');
    await waitFor(async () => {
      const streams = (await server!.call('GET', '/v1/streams')).json.response as StreamState[];
      return streams.every((s) => s.markers.length === 0);
    }, 10_000, 'the connection marker cleared');
  }, 90_000);
});
