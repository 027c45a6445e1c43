/**
 * Broken and hostile Modbus TCP servers (a Node server on 127.0.0.1 per test): wrong sizes, garbage,
 * floods, answers for another request, one byte now and then. The link gives up within its timeout
 * with a reason, the agent stays up and marks the stream, and a good server is read afterwards.
 */
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../../../testing/file-plant.js';
import { type TestServer, startTestServer } from '../../../testing/test-host.js';
import { LinkError, ModbusLink } from './modbus-link.js';

/** What the fake device does with one read request (its 12 bytes: MBAP header, function, address, count). */
type Behaviour = (request: Buffer, socket: net.Socket) => void;

/** A correct answer of `count` registers (each register's value is its address), with fields overridable. */
function answer(request: Buffer, options: { registers?: number; transaction?: number; unit?: number; fn?: number } = {}): Buffer {
  const address = request.readUInt16BE(8);
  const count = options.registers ?? request.readUInt16BE(10);
  const body = Buffer.alloc(2 + count * 2);
  body[0] = options.fn ?? request[7]!;
  body[1] = count * 2;
  for (let i = 0; i < count; i += 1) body.writeUInt16BE((address + i) & 0xffff, 2 + i * 2);
  const header = Buffer.alloc(7);
  header.writeUInt16BE(options.transaction ?? request.readUInt16BE(0), 0);
  header.writeUInt16BE(0, 2);
  header.writeUInt16BE(body.length + 1, 4);
  header[6] = options.unit ?? request[6]!;
  return Buffer.concat([header, body]);
}

const servers: net.Server[] = [];
const sockets = new Set<net.Socket>();
let host: TestServer | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
  for (const socket of sockets) socket.destroy();
  sockets.clear();
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

async function fakeDevice(behaviour: Behaviour): Promise<number> {
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    let pending = Buffer.alloc(0);
    socket.on('data', (chunk) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 12) {
        const request = pending.subarray(0, 12);
        pending = pending.subarray(12);
        behaviour(request, socket);
      }
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as net.AddressInfo).port;
}

async function readOnce(port: number, timeoutMs = 500) {
  const link = new ModbusLink({ host: '127.0.0.1', port, timeoutMs, units: [1] });
  const started = Date.now();
  try {
    await link.connect();
    const result = await link.read({ unit: 1, table: 'holding', address: 0, count: 4 });
    return { result, ms: Date.now() - started, open: link.open };
  } catch (cause) {
    return { error: cause as LinkError, ms: Date.now() - started, open: link.open };
  } finally {
    link.close();
  }
}

describe('modbus link against broken servers', () => {
  it('reads a correct answer (the fake device itself is right)', async () => {
    const port = await fakeDevice((request, socket) => socket.write(answer(request)));
    const { result } = await readOnce(port);
    expect(result).toMatchObject({ words: [0, 1, 2, 3] });
  });

  it.each<[string, Behaviour, LinkError['fault'], RegExp]>([
    ['fewer registers than asked', (request, socket) => socket.write(answer(request, { registers: 3 })), 'bad_answer', /3 registers: an answer of the wrong size/],
    ['more registers than asked', (request, socket) => socket.write(answer(request, { registers: 5 })), 'bad_answer', /5 registers: an answer of the wrong size/],
    ['garbage', (_request, socket) => socket.write(Buffer.from('HTTP/1.1 400 Bad Request\r\n\r\n')), 'bad_answer', /a header that is not Modbus TCP \(protocol id 21584, length 12081\)/],
    ['garbage one byte at a time', (_request, socket) => [...Buffer.from('SSH-2.0-OpenSSH')].forEach((b, i) => setTimeout(() => socket.destroyed || socket.write(Buffer.of(b)), i * 5)), 'bad_answer', /a header that is not Modbus TCP/],
    ['a header with a length no answer has', (request, socket) => socket.write(Buffer.concat([request.subarray(0, 4), Buffer.from([0x10, 0x00, 0x01])])), 'bad_answer', /length 4096/],
    ['a flood of bytes', (_request, socket) => socket.write(Buffer.alloc(1 << 20, 0xff)), 'bad_answer', /bytes where one Modbus answer holds at most 260/],
    ['an answer for another transaction', (request, socket) => socket.write(answer(request, { transaction: request.readUInt16BE(0) + 7 })), 'bad_answer', /not a Modbus answer/],
    ['an answer from another unit', (request, socket) => socket.write(answer(request, { unit: 9 })), 'bad_answer', /answered a request to unit 1 as unit 9\. If the device is unit 9, set the stream's unit_id to 9\./],
    ['half an answer, then silence', (request, socket) => socket.write(answer(request).subarray(0, 9)), 'no_answer', /did not answer/],
    ['half an answer, then close', (request, socket) => socket.end(answer(request).subarray(0, 9)), 'connection_lost', /closed the connection/],
    ['nothing at all', () => undefined, 'no_answer', /did not answer/],
  ])('gives up on %s within the timeout and closes the connection', async (_name, behaviour, fault, message) => {
    const port = await fakeDevice(behaviour);
    const { error, ms, open } = await readOnce(port);
    expect(error).toBeInstanceOf(LinkError);
    expect(error!.fault).toBe(fault);
    expect(error!.message).toMatch(message);
    expect(ms).toBeLessThan(2000);
    expect(open).toBe(false);
  });

  it('gives up on a server that sends one byte every 100 ms (a byte a minute, faster)', async () => {
    const port = await fakeDevice((request, socket) => {
      const bytes = answer(request);
      let i = 0;
      const timer = setInterval(() => (i < bytes.length && !socket.destroyed ? socket.write(bytes.subarray(i, ++i)) : clearInterval(timer)), 100);
      socket.on('close', () => clearInterval(timer));
    });
    const { error, ms } = await readOnce(port, 500);
    expect(error?.fault).toBe('no_answer');
    expect(ms).toBeLessThan(1500);
  });

  it('ends a connect and a read in flight at once when the link is closed (a receiver that stops)', async () => {
    const port = await fakeDevice(() => undefined);
    const connecting = new ModbusLink({ host: '127.0.0.1', port, timeoutMs: 10_000, units: [1] });
    const connected = connecting.connect();
    connecting.close();
    await expect(connected).rejects.toMatchObject({ fault: 'connect_failed' });
    const reading = new ModbusLink({ host: '127.0.0.1', port, timeoutMs: 10_000, units: [1] });
    await reading.connect();
    const started = Date.now();
    const read = reading.read({ unit: 1, table: 'holding', address: 0, count: 1 });
    setTimeout(() => reading.close(), 50);
    await expect(read).rejects.toBeInstanceOf(LinkError);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('names a refused connection and a device that never accepts', async () => {
    const closed = await fakeDevice(() => undefined);
    await new Promise((resolve) => servers.pop()!.close(resolve));
    const refused = await readOnce(closed);
    expect(refused.error).toMatchObject({ fault: 'connect_failed', message: expect.stringMatching(/refused the connection/) });
  });
});

describe('the agent with a hostile modbus device', () => {
  it('stays up, marks the stream with the reason, and reads once the device answers properly', async () => {
    let hostile = true;
    const port = await fakeDevice((request, socket) => socket.write(hostile ? Buffer.alloc(4096, 0x55) : answer(request)));
    host = await startTestServer();
    const receiver = {
      data_receiver_name: 'press',
      protocol: 'modbus',
      poll_interval: 1,
      connections: [{ host: '127.0.0.1', port, timeout: 1 }],
      streams: [{ asset: 'Press_7', stream_type: 'cycle', unit_id: 1, modbus_registers: [{ exportname: 'count', table: 'holding', address: 5, data_type: 'uint16' }] }],
    };
    const saved = await host.call('POST', '/v1/config', { data_receiver: [receiver], transforms: [], data_transmit: [] });
    expect(saved.json.success, JSON.stringify(saved.json)).toBe(true);
    // The receiver's own markers (without a transmit, the pipeline says the records go nowhere: not ours).
    const markers = async () =>
      ((await host!.call('GET', '/v1/streams')).json.response as { markers: { category: string; message: string; component_type: string }[] }[]).flatMap((s) => s.markers).filter((m) => m.component_type === 'Receiver');
    const marker = await waitFor(async () => (await markers()).find((m) => m.category === 'bad_answer'), 15_000, 'a bad_answer marker');
    expect(marker.message).toMatch(/not a Modbus TCP answer\. Next attempt in \d+ s\./);
    const status = await host.call('GET', '/v1/status');
    expect(status.status).toBe(200);
    expect(status.json.response.agent.services['receiver:press']).toMatchObject({ health: 'degraded' });

    hostile = false;
    const preview = await host.call('POST', '/v1/config/preview', { configuration: { data_receiver: [receiver], transforms: [], data_transmit: [] } });
    expect(preview.json.response.streams[0].records[0].fieldvalues).toEqual({ count: 5 });
    let last: unknown;
    await waitFor(async () => (last = await markers()) && (last as unknown[]).length === 0, 20_000, 'the marker cleared once the device answers').catch((cause) => {
      throw new Error(`${(cause as Error).message}: ${JSON.stringify(last)}`);
    });
  }, 60_000);
});
