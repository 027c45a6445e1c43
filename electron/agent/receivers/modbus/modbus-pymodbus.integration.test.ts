/**
 * The modbus receiver against an independent Modbus TCP server: Debian's pymodbus (npm run services,
 * scripts/ci/start-modbus.sh), which encodes the values of electron/testing/modbus/plant.json with
 * Python's struct. Every data type and byte order is compared with what the server holds.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { csvOutboxRows, waitFor } from '../../../testing/file-plant.js';
import { PrivateModbusServer, SERVICE_PORT, acceptsConnections, freePort, plant } from '../../../testing/modbus/pymodbus-server.js';
import { type TestServer, startTestServer, tempDirectory } from '../../../testing/test-host.js';

const float32 = (value: number) => Math.fround(value);

/** What a value of plant.json must read as. */
function expected(entry: ReturnType<typeof plant>['values'][number]): unknown {
  if (entry.data_type === 'float32') return float32(entry.value as number);
  if (entry.data_type === 'string') return (entry.value as string).replace(/[\0 ]+$/, '');
  return entry.value;
}

const columnOf = (entry: { table: string; address: number }) => `${entry.table}_${entry.address}`;

function streamOfUnit(unit: number) {
  const values = plant().values.filter((v) => v.unit === unit);
  return {
    asset: `Unit_${unit}`,
    stream_type: 'all_types',
    unit_id: unit,
    modbus_registers: values.map((v) => ({
      exportname: columnOf(v),
      table: v.table,
      address: v.address,
      data_type: v.data_type,
      ...(v.byte_order ? { byte_order: v.byte_order } : {}),
      ...(v.length ? { length: v.length } : {}),
    })),
  };
}

function configuration(port: number, streams: unknown[], directory = tempDirectory('tributary-modbus-out-'), pollInterval = 1) {
  return {
    data_receiver: [{ data_receiver_name: 'line2_modbus', protocol: 'modbus', poll_interval: pollInterval, connections: [{ host: '127.0.0.1', port, timeout: 2 }], streams }],
    transforms: [],
    data_transmit: [{ transmit_name: 'archive', transmit_type: 'csv', filter_stream: ['*'], directory, poll_interval: 1 }],
  };
}

/** A stream with a register the server does not have (exception 2) beside one it has. */
const withBadAddress = {
  asset: 'Unit_1',
  stream_type: 'partly_missing',
  unit_id: 1,
  modbus_registers: [
    { exportname: 'temp', table: 'holding', address: 0, data_type: 'float32' },
    { exportname: 'missing', table: 'holding', address: 500, data_type: 'uint16' },
  ],
};

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('modbus receiver against pymodbus', () => {
  beforeAll(async () => {
    if (!(await acceptsConnections(SERVICE_PORT))) throw new Error(`No Modbus server on 127.0.0.1:${SERVICE_PORT}: run npm run services (scripts/ci/start-modbus.sh).`);
  });

  it('previews every data type and byte order of two unit ids as the server holds them, with the read plan', async () => {
    server = await startTestServer();
    const extra = { exportname: 'alarm', table: 'holding', address: 8, data_type: 'bool', bit: 3 };
    const scaled = { exportname: 'energy', table: 'input', address: 12, data_type: 'int32', scale: 0.1 };
    const unit1 = streamOfUnit(1);
    unit1.modbus_registers.push(extra as never, scaled as never);
    const reply = await server.call('POST', '/v1/config/preview', { configuration: configuration(SERVICE_PORT, [unit1, streamOfUnit(2)]) });
    expect(reply.status, JSON.stringify(reply.json)).toBe(200);
    const [first, second] = reply.json.response.streams;
    for (const [stream, unit] of [[first, 1], [second, 2]] as const) {
      expect(stream.problems).toEqual([]);
      expect(stream.records).toHaveLength(1);
      const values = stream.records[0].fieldvalues;
      for (const entry of plant().values.filter((v) => v.unit === unit)) expect(values[columnOf(entry)], `unit ${unit} ${entry.data_type} ${entry.byte_order ?? ''} at ${entry.table} ${entry.address}`).toEqual(expected(entry));
    }
    expect(first.records[0].fieldvalues.alarm).toBe(true);
    expect(first.records[0].fieldvalues.energy).toBeCloseTo(-50, 10);
    // The plan: unit 1's 30 holding values lie back to back: one request, not 30.
    expect(first.source).toContain('modbus://127.0.0.1:5020');
    expect(first.source).toContain('unit 1, holding registers 0–83');
    expect(first.source).toContain('unit 1, input registers 10–13');
    expect(first.source).toContain('unit 1, coils 0–5');
    expect(second.source).toContain('unit 2, holding registers 0–2');
  });

  it('splits a merged request the server refuses for one address, so only that value is missing', async () => {
    server = await startTestServer();
    // The server's tables end at 199: 198–200 would be one request, refused as a whole.
    const edge = {
      asset: 'Unit_1',
      stream_type: 'table_end',
      unit_id: 1,
      modbus_registers: [
        { exportname: 'last_but_one', table: 'holding', address: 198 },
        { exportname: 'last', table: 'holding', address: 199 },
        { exportname: 'beyond', table: 'holding', address: 200 },
      ],
    };
    const reply = await server.call('POST', '/v1/config/preview', { configuration: configuration(SERVICE_PORT, [edge]) });
    const [stream] = reply.json.response.streams;
    expect(stream.source).toContain('1 request of 1 per poll: unit 1, holding registers 198–200');
    expect(stream.records[0].fieldvalues).toEqual({ last_but_one: 0, last: 0, beyond: null });
    expect(stream.problems).toEqual([
      expect.objectContaining({ level: 'error', message: 'unit 1, holding register 200 (beyond): the device answered exception 2 (illegal data address).' }),
      { level: 'warning', message: expect.stringContaining('reads those values one by one (3 requests per poll instead of 1)'), code: 'modbus.requests_split', params: { requests: 3, planned: 1 } },
    ]);
  });

  it('reads on while one address is refused: the stream is marked with unit, table, address and exception', async () => {
    const directory = tempDirectory('tributary-modbus-out-');
    server = await startTestServer();
    const saved = await server.call('POST', '/v1/config', configuration(SERVICE_PORT, [streamOfUnit(2), withBadAddress], directory));
    expect(saved.json.success, JSON.stringify(saved.json)).toBe(true);
    await waitFor(() => csvOutboxRows(directory, 'Unit_1', 'partly_missing').length >= 2, 20_000, 'records of the partly refused stream');
    const rows = csvOutboxRows(directory, 'Unit_1', 'partly_missing');
    expect(rows[0]).toMatchObject({ temp: '21.5', missing: '' });
    await waitFor(() => csvOutboxRows(directory, 'Unit_2', 'all_types').length >= 2, 20_000, 'records of the other stream');
    expect(csvOutboxRows(directory, 'Unit_2', 'all_types')[0]).toMatchObject({ holding_0: '99.25', input_0: '-7', coil_0: 'false' });
    const streams = (await server.call('GET', '/v1/streams')).json.response as { asset: string; stream_type: string; markers: { category: string; message: string; level: string }[] }[];
    const marked = streams.find((s) => s.stream_type === 'partly_missing')!;
    expect(marked.markers).toEqual([expect.objectContaining({ category: 'modbus_exception', level: 'error' })]);
    expect(marked.markers[0]!.message).toMatch(/unit 1, holding register 500 \(missing\): the device answered exception 2 \(illegal data address\)/);
    expect(streams.find((s) => s.stream_type === 'all_types')!.markers).toEqual([]);
  }, 60_000);
});

describe('modbus receiver when the server goes away', () => {
  let device: PrivateModbusServer | undefined;
  afterEach(async () => {
    await device?.stop();
    device = undefined;
  });

  it('is degraded with the reason while the server is down, and reads again by itself after a restart', async () => {
    device = new PrivateModbusServer(await freePort());
    await device.start();
    const directory = tempDirectory('tributary-modbus-out-');
    server = await startTestServer();
    const saved = await server.call('POST', '/v1/config', configuration(device.port, [streamOfUnit(2)], directory));
    expect(saved.json.success, JSON.stringify(saved.json)).toBe(true);
    const rows = () => csvOutboxRows(directory, 'Unit_2', 'all_types').length;
    await waitFor(() => rows() >= 1, 20_000, 'the first record');

    await device.stop();
    const service = async () => (await server!.call('GET', '/v1/status')).json.response.agent.services['receiver:line2_modbus'];
    const degraded = await waitFor(async () => {
      const streams = (await server!.call('GET', '/v1/streams')).json.response as { markers: { category: string; message: string }[] }[];
      return streams.flatMap((s) => s.markers).find((m) => ['connection_lost', 'connect_failed', 'no_answer'].includes(m.category));
    }, 20_000, 'a connection marker');
    expect(degraded.message).toMatch(new RegExp(`127\\.0\\.0\\.1:${device.port}`));
    expect(await service()).toMatchObject({ health: 'degraded', reason: expect.stringContaining(`127.0.0.1:${device.port}`) });
    const before = rows();

    await device.start();
    await waitFor(() => rows() > before + 1, 40_000, 'records after the server came back');
    await waitFor(async () => {
      const streams = (await server!.call('GET', '/v1/streams')).json.response as { markers: unknown[] }[];
      return streams.every((s) => s.markers.length === 0);
    }, 10_000, 'the connection marker cleared');
  }, 90_000);
});
