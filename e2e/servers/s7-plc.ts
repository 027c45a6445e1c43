/**
 * A small S7comm PLC for the console's end-to-end tests, in the test process on 127.0.0.1: it
 * confirms the ISO connection, grants a PDU of 240 bytes and answers read jobs from DB1 and the M
 * area it holds (an oven: 21.5 °C, 1,234 parts, the door shut, recipe "BREAD"). The receiver's
 * integration tests run against Snap7's server; this one keeps the e2e run free of native code.
 */
import net from 'node:net';

const tpkt = (payload: Buffer) => Buffer.concat([Buffer.from([0x03, 0x00, (payload.length + 4) >> 8, (payload.length + 4) & 0xff]), payload]);
const CONNECT_CONFIRM = tpkt(Buffer.from([0x11, 0xd0, 0x00, 0x01, 0x00, 0x01, 0x00, 0xc0, 0x01, 0x0a, 0xc1, 0x02, 0x01, 0x00, 0xc2, 0x02, 0x01, 0x01]));
const AREAS: Record<number, string> = { 0x84: 'DB', 0x83: 'M' };

function memory(): { db1: Buffer; m: Buffer } {
  const db1 = Buffer.alloc(64);
  db1.writeFloatBE(21.5, 0);
  db1.writeInt16BE(1234, 4);
  db1[6] = 0b0000_0000; // X6.0: the door is shut
  db1.writeInt32BE(987_654, 8);
  db1[20] = 16;
  db1[21] = 5;
  db1.write('BREAD', 22, 'latin1');
  const m = Buffer.alloc(16);
  m.writeUInt16BE(513, 10);
  m[0] = 0b0000_0010; // M0.1
  return { db1, m };
}

function answer(request: Buffer, held: { db1: Buffer; m: Buffer }): Buffer {
  const count = request[18]!;
  const items: Buffer[] = [];
  for (let i = 0; i < count; i += 1) {
    const at = 19 + 12 * i;
    const length = request.readUInt16BE(at + 4);
    const db = request.readUInt16BE(at + 6);
    const area = AREAS[request[at + 8]!];
    const start = ((request[at + 9]! << 16) | request.readUInt16BE(at + 10)) >> 3;
    const source = area === 'DB' && db === 1 ? held.db1 : area === 'M' ? held.m : undefined;
    if (!source || start + length > source.length) {
      items.push(Buffer.from([0x0a, 0x00, 0x00, 0x00]));
      continue;
    }
    const item = Buffer.alloc(4 + length + (i < count - 1 ? length % 2 : 0));
    item.set([0xff, 0x04], 0);
    item.writeUInt16BE(length * 8, 2);
    source.copy(item, 4, start, start + length);
    items.push(item);
  }
  const body = Buffer.concat(items);
  const header = Buffer.from([0x32, 0x03, 0x00, 0x00, request[11]!, request[12]!, 0x00, 0x02, body.length >> 8, body.length & 0xff, 0x00, 0x00, 0x04, count]);
  return tpkt(Buffer.concat([Buffer.from([0x02, 0xf0, 0x80]), header, body]));
}

export async function startS7Plc(): Promise<{ port: number; stop(): Promise<void> }> {
  const held = memory();
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let pending = Buffer.alloc(0);
    socket.on('data', (chunk) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 4 && pending.length >= pending.readUInt16BE(2)) {
        const frame = pending.subarray(0, pending.readUInt16BE(2));
        pending = pending.subarray(frame.length);
        if (frame[5] === 0xe0) socket.write(CONNECT_CONFIRM);
        else if (frame[17] === 0xf0) socket.write(tpkt(Buffer.from([0x02, 0xf0, 0x80, 0x32, 0x03, 0x00, 0x00, frame[11]!, frame[12]!, 0x00, 0x08, 0x00, 0x00, 0x00, 0x00, 0xf0, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0xf0])));
        else socket.write(answer(frame, held));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    stop: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
