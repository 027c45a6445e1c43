/**
 * Broken and hostile S7 servers (a Node server on 127.0.0.1 per test) that connect properly and then
 * answer reads with wrong lengths, garbage, floods, answers to another job, one byte now and then, or
 * bytes fast-check makes up. The link gives up within its timeout with a reason and never throws
 * anything but LinkError; the agent stays up, marks the stream, and reads once the server behaves.
 */
import net from 'node:net';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { parseS7Address } from '../../../../shared/config/receivers/s7/address.js';
import { waitFor } from '../../../testing/file-plant.js';
import { type TestServer, startTestServer } from '../../../testing/test-host.js';
import { LinkError } from '../link-health.js';
import { planRanges, planRequests } from './plan.js';
import { parseReadAnswer } from './s7-frames.js';
import { S7Link } from './s7-link.js';

/** What the fake PLC does with one read job (the whole TPKT frame). */
type Behaviour = (request: Buffer, socket: net.Socket) => void;

const tpkt = (payload: Buffer) => Buffer.concat([Buffer.from([0x03, 0x00, (payload.length + 4) >> 8, (payload.length + 4) & 0xff]), payload]);
const CONNECT_CONFIRM = tpkt(Buffer.from([0x11, 0xd0, 0x00, 0x01, 0x00, 0x01, 0x00, 0xc0, 0x01, 0x0a, 0xc1, 0x02, 0x01, 0x00, 0xc2, 0x02, 0x01, 0x01]));

function setupAnswer(request: Buffer, pdu = 240): Buffer {
  const s7 = Buffer.from([0x32, 0x03, 0x00, 0x00, request[11]!, request[12]!, 0x00, 0x08, 0x00, 0x00, 0x00, 0x00, 0xf0, 0x00, 0x00, 0x01, 0x00, 0x01, pdu >> 8, pdu & 0xff]);
  return tpkt(Buffer.concat([Buffer.from([0x02, 0xf0, 0x80]), s7]));
}

/** A correct answer to a read job: each item's bytes count up from 0, with fields overridable. */
function readAnswer(request: Buffer, options: { reference?: number; shorten?: number } = {}): Buffer {
  const count = request[18]!;
  const data: Buffer[] = [];
  for (let i = 0; i < count; i += 1) {
    const length = Math.max(0, request.readUInt16BE(19 + 12 * i + 4) - (options.shorten ?? 0));
    const item = Buffer.alloc(4 + length + (i < count - 1 ? length % 2 : 0));
    item.set([0xff, 0x04], 0);
    item.writeUInt16BE(length * 8, 2);
    for (let b = 0; b < length; b += 1) item[4 + b] = b & 0xff;
    data.push(item);
  }
  const body = Buffer.concat(data);
  const header = Buffer.from([0x32, 0x03, 0x00, 0x00, 0, 0, 0x00, 0x02, 0, 0, 0x00, 0x00, 0x04, count]);
  header.writeUInt16BE(options.reference ?? request.readUInt16BE(11), 4);
  header.writeUInt16BE(body.length, 8);
  return tpkt(Buffer.concat([Buffer.from([0x02, 0xf0, 0x80]), header, body]));
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

/** A fake PLC: confirms the connection and the setup, then hands each read job to `behaviour`. */
async function fakePlc(behaviour: Behaviour): Promise<number> {
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    let pending = Buffer.alloc(0);
    socket.on('data', (chunk) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 4 && pending.length >= pending.readUInt16BE(2)) {
        const frame = pending.subarray(0, pending.readUInt16BE(2));
        pending = pending.subarray(frame.length);
        if (frame[5] === 0xe0) socket.write(CONNECT_CONFIRM);
        else if (frame[17] === 0xf0) socket.write(setupAnswer(frame));
        else behaviour(frame, socket);
      }
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as net.AddressInfo).port;
}

const request = (...addresses: string[]) => {
  const items = addresses.map((a, value) => ({ stream: 0, value, address: parseS7Address(a).address! }));
  return planRequests(planRanges(items, 240), 240)[0]!;
};

async function readOnce(port: number, timeoutMs = 500) {
  const link = new S7Link({ host: '127.0.0.1', port, rack: 0, slot: 1, timeoutMs });
  const started = Date.now();
  try {
    await link.connect();
    const result = await link.read(request('DB1,INT0', 'MW10'));
    return { result, ms: Date.now() - started, open: link.open };
  } catch (cause) {
    return { error: cause as LinkError, ms: Date.now() - started, open: link.open };
  } finally {
    link.close();
  }
}

describe('s7 link against broken servers', () => {
  it('reads a correct answer (the fake PLC itself is right)', async () => {
    const port = await fakePlc((frame, socket) => socket.write(readAnswer(frame)));
    const { result } = await readOnce(port);
    expect(result?.items?.map((i) => [...i.data!])).toEqual([
      [0, 1],
      [0, 1],
    ]);
  });

  it.each<[string, Behaviour, LinkError['fault'], RegExp]>([
    ['items shorter than asked', (frame, socket) => socket.write(readAnswer(frame, { shorten: 1 })), 'bad_answer', /1 bytes for item 1, which asked for 2/],
    ['garbage', (_frame, socket) => socket.write(Buffer.from('HTTP/1.1 400 Bad Request\r\n\r\n')), 'bad_answer', /not an ISO-on-TCP frame/],
    ['garbage one byte at a time', (_frame, socket) => [...Buffer.from('SSH-2.0-OpenSSH')].forEach((b, i) => setTimeout(() => socket.destroyed || socket.write(Buffer.of(b)), i * 5)), 'bad_answer', /not an ISO-on-TCP frame/],
    ['a frame longer than any answer', (_frame, socket) => socket.write(Buffer.from([0x03, 0x00, 0xff, 0xff, 0x02])), 'bad_answer', /at most 967 bytes/],
    ['a frame shorter than any answer', (_frame, socket) => socket.write(Buffer.from([0x03, 0x00, 0x00, 0x02])), 'bad_answer', /not an ISO-on-TCP frame/],
    ['a flood of bytes', (_frame, socket) => socket.write(Buffer.alloc(1 << 20, 0x03)), 'bad_answer', /a frame that is not COTP data|a frame nobody asked for/],
    ['an answer to another job', (frame, socket) => socket.write(readAnswer(frame, { reference: frame.readUInt16BE(11) + 7 })), 'bad_answer', /the answer to job \d+ where \d+ was asked/],
    ['half an answer, then silence', (frame, socket) => socket.write(readAnswer(frame).subarray(0, 12)), 'no_answer', /did not answer the read of DB1, bytes 0–1; memory \(M, flags\), bytes 10–11 within 0.5 s/],
    ['half an answer, then close', (frame, socket) => socket.end(readAnswer(frame).subarray(0, 12)), 'connection_lost', /closed the connection/],
    ['nothing at all', () => undefined, 'no_answer', /did not answer/],
  ])('gives up on %s within the timeout and closes the connection', async (_name, behaviour, fault, message) => {
    const port = await fakePlc(behaviour);
    const { error, ms, open } = await readOnce(port);
    expect(error).toBeInstanceOf(LinkError);
    expect(error!.fault).toBe(fault);
    expect(error!.message).toMatch(message);
    expect(ms).toBeLessThan(2000);
    expect(open).toBe(false);
  });

  it('takes the answer to its job and closes on a second one nobody asked for', async () => {
    const port = await fakePlc((frame, socket) => socket.write(Buffer.concat([readAnswer(frame), readAnswer(frame)])));
    const { result, open } = await readOnce(port);
    expect(result?.items).toHaveLength(2);
    expect(open).toBe(false);
  });

  it('gives up on a server that sends one byte every 100 ms (a byte a minute, faster)', async () => {
    const port = await fakePlc((frame, socket) => {
      const bytes = readAnswer(frame);
      let i = 0;
      const timer = setInterval(() => (i < bytes.length && !socket.destroyed ? socket.write(bytes.subarray(i, ++i)) : clearInterval(timer)), 100);
      socket.on('close', () => clearInterval(timer));
    });
    const { error, ms } = await readOnce(port, 500);
    expect(error?.fault).toBe('no_answer');
    expect(ms).toBeLessThan(1500);
  });

  it('names a PLC that refuses the connection for its rack and slot, and one that never accepts', async () => {
    const server = net.createServer((socket) => {
      sockets.add(socket);
      socket.on('data', () => socket.write(tpkt(Buffer.from([0x06, 0x80, 0x00, 0x00, 0x00, 0x01, 0x00]))));
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const refused = await readOnce((server.address() as net.AddressInfo).port);
    expect(refused.error).toMatchObject({ fault: 'connect_failed', message: expect.stringMatching(/refused the S7 connection .*disconnect request.*Check rack and slot/) });
    const closed = await fakePlc(() => undefined);
    await new Promise((resolve) => servers.pop()!.close(resolve));
    expect((await readOnce(closed)).error).toMatchObject({ fault: 'connect_failed', message: expect.stringMatching(/refused the connection/) });
  });

  it('ends on any bytes a server makes up, cut anyhow, with an answer or a LinkError within the timeout', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.uint8Array({ minLength: 1, maxLength: 300 }), { minLength: 1, maxLength: 6 }), fc.boolean(), async (chunks, framed) => {
        const port = await fakePlc((frame, socket) => {
          // Framed: made-up bytes behind a valid TPKT and S7 header, so the parser's checks are reached.
          const junk = Buffer.concat(chunks.map((c) => Buffer.from(c)));
          const payload = framed ? Buffer.concat([readAnswer(frame).subarray(0, 21), junk]) : junk;
          if (framed) payload.writeUInt16BE(Math.min(payload.length, 0xffff), 2);
          // Sent in the pieces fast-check chose, a few milliseconds apart.
          let at = 0;
          chunks.forEach((chunk, i) => {
            const piece = payload.subarray(at, (at += chunk.length));
            setTimeout(() => socket.destroyed || socket.write(piece), i * 3);
          });
          const rest = payload.subarray(at);
          if (rest.length > 0) setTimeout(() => socket.destroyed || socket.write(rest), chunks.length * 3);
        });
        const { result, error, ms } = await readOnce(port, 300);
        if (error) expect(error).toBeInstanceOf(LinkError);
        else expect(result).toBeDefined();
        expect(ms).toBeLessThan(1500);
      }),
      { numRuns: 40 },
    );
  }, 60_000);

  it('parses any frame to items, a refusal or a sentence, never reading past it', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 0, maxLength: 400 }), fc.array(fc.integer({ min: 1, max: 50 }), { minLength: 1, maxLength: 5 }), (bytes, lengths) => {
        const answer = parseReadAnswer(Buffer.from(bytes), 1, lengths);
        if (typeof answer !== 'string' && answer.items) answer.items.forEach((item, i) => item.data && expect(item.data.length).toBe(lengths[i]));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('the agent with a hostile S7 server', () => {
  it('stays up, marks the stream with the reason, and reads once the server answers properly', async () => {
    let hostile = true;
    const port = await fakePlc((frame, socket) => socket.write(hostile ? Buffer.alloc(4096, 0x55) : readAnswer(frame)));
    host = await startTestServer();
    const receiver = {
      data_receiver_name: 'oven',
      protocol: 's7',
      poll_interval: 1,
      connections: [{ host: '127.0.0.1', port, rack: 0, slot: 1, timeout: 1 }],
      streams: [{ asset: 'Oven_4', stream_type: 'process', s7_tags: [{ exportname: 'count', address: 'DB1,INT0' }] }],
    };
    const saved = await host.call('POST', '/v1/config', { data_receiver: [receiver], transforms: [], data_transmit: [] });
    expect(saved.json.success, JSON.stringify(saved.json)).toBe(true);
    const markers = async () =>
      ((await host!.call('GET', '/v1/streams')).json.response as { markers: { category: string; message: string; component_type: string }[] }[]).flatMap((s) => s.markers).filter((m) => m.component_type === 'Receiver');
    const marker = await waitFor(async () => (await markers()).find((m) => m.category === 'bad_answer'), 15_000, 'a bad_answer marker');
    expect(marker.message).toMatch(/not an ISO-on-TCP frame.*Next attempt in \d+ s\./);
    const status = await host.call('GET', '/v1/status');
    expect(status.json.response.agent.services['receiver:oven']).toMatchObject({ health: 'degraded' });

    hostile = false;
    const preview = await host.call('POST', '/v1/config/preview', { configuration: { data_receiver: [receiver], transforms: [], data_transmit: [] } });
    expect(preview.json.response.streams[0].records[0].fieldvalues).toEqual({ count: 1 });
    let last: unknown;
    await waitFor(async () => (last = await markers()) && (last as unknown[]).length === 0, 20_000, 'the marker cleared once the server answers').catch((cause) => {
      throw new Error(`${(cause as Error).message}: ${JSON.stringify(last)}`);
    });
  }, 60_000);
});
