/**
 * The pymodbus test server (modbus-server.py, the values of plant.json) for the modbus receiver's
 * integration tests: the one `npm run services` runs on 127.0.0.1:5020, or a private one on a port
 * of its own for a test that stops and restarts it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import { waitFor } from '../file-plant.js';

export const SERVICE_PORT = 5020;
const SCRIPT = fileURLToPath(new URL('./modbus-server.py', import.meta.url));

export interface PlantValue {
  unit: number;
  table: 'holding' | 'input' | 'coil' | 'discrete';
  address: number;
  data_type: string;
  byte_order?: string;
  length?: number;
  value: number | string | boolean;
}

/** What the server holds: its values and the size of each unit's tables. */
export function plant(): { size: number; values: PlantValue[] } {
  return JSON.parse(fs.readFileSync(fileURLToPath(new URL('./plant.json', import.meta.url)), 'utf8'));
}

export function acceptsConnections(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

/**
 * A free loopback port below Linux's ephemeral range (32768–60999): while the server is down, a
 * connect to a port in that range can be given the same port as its source and connect to itself,
 * and the restarted server could then not listen on it.
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const port = 20_000 + Math.floor(Math.random() * 10_000);
    const free = await new Promise<boolean>((resolve) => {
      const server = net.createServer();
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
    });
    if (free) return port;
  }
  throw new Error('no free port in 20000–29999');
}

/** A private pymodbus server; `stop()` kills it (the test's "the device is switched off"). */
export class PrivateModbusServer {
  private child: ChildProcess | undefined;
  constructor(readonly port: number) {}

  async start(): Promise<void> {
    const child = spawn('/usr/bin/python3', [SCRIPT, '--host', '127.0.0.1', '--port', String(this.port)], { stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    let errors = '';
    let listening = false;
    child.stderr!.on('data', (chunk: Buffer) => (errors = `${errors}${chunk.toString()}`.slice(-2000)));
    child.stdout!.on('data', (chunk: Buffer) => (listening ||= chunk.toString().includes('listening')));
    // The server says when it listens: probing the port before would race its bind.
    await waitFor(() => {
      if (child.exitCode !== null) throw new Error(`pymodbus exited (${child.exitCode}): ${errors}`);
      return listening;
    }, 15_000, `pymodbus on 127.0.0.1:${this.port}`);
  }

  async stop(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }
}
