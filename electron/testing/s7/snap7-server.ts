/**
 * Snap7's S7 server (npm node-snap7, a C++ implementation of the S7 protocol; a devDependency, never
 * imported by product code) holding a small plant with known bytes, for the s7 receiver's
 * integration tests. It runs inside the test process on 127.0.0.1 and a port of its own, built
 * from source by npm ci (node-gyp); `stop()` is "the PLC is switched off", `start()` again a restart.
 */
import { createRequire } from 'node:module';

interface Snap7Server {
  LocalPort: number;
  srvAreaDB: number;
  srvAreaMK: number;
  srvAreaPE: number;
  srvAreaPA: number;
  SetParam(param: number, value: number): boolean;
  RegisterArea(area: number, index: number, buffer: Buffer): boolean;
  RegisterArea(area: number, buffer: Buffer): boolean;
  StartTo(ip: string, callback: (error?: unknown) => void): void;
  Stop(callback: (error?: unknown) => void): void;
  ErrorText(error: unknown): string;
}

const require = createRequire(import.meta.url);

/** One value of the plant: its address, the bytes the server holds for it, and what it must read as. */
export interface PlantValue {
  address: string;
  value: number | boolean | string;
}

/** DB1 (64 bytes), DB3 (4 bytes: what lies beyond is out of range), M (32), I (16) and Q (16), no DB2. */
export function plantAreas(): { db1: Buffer; db3: Buffer; m: Buffer; i: Buffer; q: Buffer } {
  const db1 = Buffer.alloc(64);
  db1.writeFloatBE(21.5, 0);
  db1.writeInt16BE(-1234, 4);
  db1[6] = 0b0000_1001; // X6.0 and X6.3
  db1.writeInt32BE(-100_000, 8);
  db1[12] = 200;
  db1.writeUInt16BE(0xbeef, 14);
  db1.writeUInt32BE(4_000_000_000, 16);
  db1[20] = 16; // String[16] "Hello"
  db1[21] = 5;
  db1.write('Hello', 22, 'latin1');
  db1.write('Z', 40, 'latin1');
  db1.writeFloatBE(-0.125, 44);
  const db3 = Buffer.from([0x00, 0x07, 0x00, 0x2a]);
  const m = Buffer.alloc(32);
  m[0] = 0b0000_0010; // M0.1
  m[1] = 7;
  m.writeUInt16BE(513, 10);
  m.writeUInt32BE(0x12345678, 20);
  const i = Buffer.alloc(16);
  i.writeUInt16BE(1000, 0); // byte 0 is 0x03: I0.0 and I0.1
  i[2] = 42;
  i.writeUInt32BE(99_999, 4);
  const q = Buffer.alloc(16);
  q[0] = 0b0000_0010; // Q0.1
  q.writeUInt16BE(65535, 2);
  q.writeUInt32BE(7, 4);
  return { db1, db3, m, i, q };
}

/** Every address type, with what the server's bytes mean (written above with Node's Buffer, big-endian as on a PLC). */
export const PLANT_VALUES: PlantValue[] = [
  { address: 'DB1,REAL0', value: 21.5 },
  { address: 'DB1,INT4', value: -1234 },
  { address: 'DB1,X6.0', value: true },
  { address: 'DB1,X6.1', value: false },
  { address: 'DB1,X6.3', value: true },
  { address: 'DB1,DINT8', value: -100_000 },
  { address: 'DB1,BYTE12', value: 200 },
  { address: 'DB1,WORD14', value: 0xbeef },
  { address: 'DB1,DWORD16', value: 4_000_000_000 },
  { address: 'DB1,S20.16', value: 'Hello' },
  { address: 'DB1,CHAR40', value: 'Z' },
  { address: 'DB1,REAL44', value: -0.125 },
  { address: 'MB1', value: 7 },
  { address: 'MW10', value: 513 },
  { address: 'MD20', value: 0x12345678 },
  { address: 'M0.1', value: true },
  { address: 'M0.0', value: false },
  { address: 'IW0', value: 1000 },
  { address: 'IB2', value: 42 },
  { address: 'ID4', value: 99_999 },
  { address: 'I0.0', value: true },
  { address: 'QB0', value: 2 },
  { address: 'QW2', value: 65535 },
  { address: 'QD4', value: 7 },
  { address: 'Q0.1', value: true },
  { address: 'DB3,INT2', value: 42 },
];

/**
 * node-snap7 blocks the process in the second S7Server's start once one was stopped, so a process has
 * one server, made on first use with the plant's areas, started and stopped on the port of the
 * Snap7Plant at hand: one plant runs at a time.
 */
let shared: Snap7Server | undefined;
/** The port of the plant that runs, if one does. */
let runningPort: number | undefined;

/** Kept on globalThis too: a test runner that evaluates this module again in the same process must not make a second server. */
const GLOBAL_KEY = Symbol.for('tributary.snap7-server');

function theServer(): Snap7Server {
  shared ??= (globalThis as Record<symbol, Snap7Server | undefined>)[GLOBAL_KEY];
  if (shared) return shared;
  const snap7 = require('node-snap7') as { S7Server: new () => Snap7Server };
  const server = new snap7.S7Server();
  const areas = plantAreas();
  server.RegisterArea(server.srvAreaDB, 1, areas.db1);
  server.RegisterArea(server.srvAreaDB, 3, areas.db3);
  server.RegisterArea(server.srvAreaMK, areas.m);
  server.RegisterArea(server.srvAreaPE, areas.i);
  server.RegisterArea(server.srvAreaPA, areas.q);
  (globalThis as Record<symbol, Snap7Server | undefined>)[GLOBAL_KEY] = server;
  return (shared = server);
}

export class Snap7Plant {
  constructor(readonly port: number) {}

  async start(): Promise<void> {
    if (runningPort !== undefined) throw new Error(`The Snap7 plant on port ${runningPort} still runs: one at a time.`);
    const server = theServer();
    server.SetParam(server.LocalPort, this.port);
    await new Promise<void>((resolve, reject) => server.StartTo('127.0.0.1', (error) => (error ? reject(new Error(`Snap7 server on port ${this.port}: ${server.ErrorText(error)}`)) : resolve())));
    runningPort = this.port;
  }

  async stop(): Promise<void> {
    if (runningPort !== this.port) return;
    runningPort = undefined;
    await new Promise<void>((resolve) => shared!.Stop(() => resolve()));
  }
}
