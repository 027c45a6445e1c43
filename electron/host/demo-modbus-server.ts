import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import jsmodbus from 'jsmodbus';
import type { ConfigurationInput } from '../../shared/config/schema.js';

export const DEMO_MODBUS_RECEIVER = 'demo_plant_modbus';

/**
 * The simulated compressor's registers (docs/modbus.md), as a plant's manual would list them, with
 * the byte orders real devices use: the pressure big-endian (ABCD), the meter-style counters with
 * their registers swapped (CDAB).
 */
const HOLDING = { pressure: 0, motorTemperature: 2, status: 3, model: 10 } as const;
const INPUT = { runningSeconds: 0, energy: 2 } as const;
const RUNNING_BIT = 0;
const ALARM_BIT = 3;

/** The demo receiver reading the simulated compressor on `port`. */
export function demoModbusReceiver(port: number): NonNullable<ConfigurationInput['data_receiver']>[number] {
  return {
    data_receiver_name: DEMO_MODBUS_RECEIVER,
    protocol: 'modbus',
    poll_interval: 1,
    connections: [{ connection_name: 'simulated_compressor', host: '127.0.0.1', port, timeout: 3 }],
    streams: [
      {
        asset: 'Compressor_3',
        stream_type: 'process',
        unit_id: 1,
        modbus_registers: [
          { exportname: 'pressure_bar', table: 'holding', address: HOLDING.pressure, data_type: 'float32', byte_order: 'ABCD' },
          { exportname: 'motor_temperature_C', table: 'holding', address: HOLDING.motorTemperature, data_type: 'int16', scale: 0.1 },
          { exportname: 'alarm', table: 'holding', address: HOLDING.status, data_type: 'bool', bit: ALARM_BIT },
          { exportname: 'model', table: 'holding', address: HOLDING.model, data_type: 'string', length: 4 },
          { exportname: 'running_s', table: 'input', address: INPUT.runningSeconds, data_type: 'uint32', byte_order: 'CDAB' },
          { exportname: 'energy_kWh', table: 'input', address: INPUT.energy, data_type: 'float32', byte_order: 'CDAB' },
          { exportname: 'running', table: 'coil', address: 0, data_type: 'bool' },
        ],
      },
    ],
  };
}

/** Port of the demo receiver in a saved configuration, so that a restarted demo keeps its address. */
function savedPort(dataDirectory: string): number | undefined {
  try {
    const saved = JSON.parse(fs.readFileSync(path.join(dataDirectory, 'conf.d', 'tributary.json'), 'utf8')) as { data_receiver?: { data_receiver_name?: string; connections?: { port?: number }[] }[] };
    const port = saved.data_receiver?.find((r) => r.data_receiver_name === DEMO_MODBUS_RECEIVER)?.connections?.[0]?.port;
    return typeof port === 'number' ? port : undefined;
  } catch {
    return undefined;
  }
}

function listen(server: net.Server, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const failed = () => resolve(false);
    server.once('error', failed);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', failed);
      resolve(true);
    });
  });
}

/** CDAB: the low register first, each big-endian (many meters and drives). */
function writeSwapped(buffer: Buffer, register: number, bytes: Buffer): void {
  buffer.writeUInt16BE(bytes.readUInt16BE(2), register * 2);
  buffer.writeUInt16BE(bytes.readUInt16BE(0), register * 2 + 2);
}

/**
 * A compressor on Modbus TCP for `--demo`, served by jsmodbus in this process on 127.0.0.1: every
 * second it updates pressure, motor temperature, running time, energy and its status bits. Mostly
 * running; it unloads for a while every few minutes and raises its alarm bit now and then.
 */
export class DemoModbusPlant {
  private timer: NodeJS.Timeout | undefined;
  private tick = 0;
  private runningSeconds = 0;
  private energy = 1520.5;
  private readonly holding = Buffer.alloc(2 * 32);
  private readonly input = Buffer.alloc(2 * 16);
  private readonly coils = Buffer.alloc(2);
  private readonly sockets = new Set<net.Socket>();

  private constructor(
    private readonly server: net.Server,
    readonly port: number,
  ) {}

  /** Listens on the saved demo port while it is free (a restarted demo keeps its address), else on a free one. */
  static async start(dataDirectory: string): Promise<DemoModbusPlant> {
    const server = net.createServer();
    const preferred = savedPort(dataDirectory);
    if (preferred === undefined || !(await listen(server, preferred))) {
      if (!(await listen(server, 0))) throw new Error('no loopback port to listen on');
    }
    const plant = new DemoModbusPlant(server, (server.address() as net.AddressInfo).port);
    server.on('connection', (socket) => {
      plant.sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => plant.sockets.delete(socket));
    });
    new jsmodbus.server.TCP(server, { holding: plant.holding, input: plant.input, coils: plant.coils, discrete: Buffer.alloc(2) });
    plant.holding.write('GA37', HOLDING.model * 2, 'latin1');
    plant.step();
    plant.timer = setInterval(() => plant.step(), 1000);
    plant.timer.unref();
    return plant;
  }

  private step(): void {
    const i = this.tick++;
    const phase = i % 240;
    const running = phase < 200;
    const alarm = phase >= 225;
    if (running) {
      this.runningSeconds += 1;
      this.energy += 0.0125;
    }
    const pressure = running ? 7.5 + Math.sin(i / 13) * 0.3 : 6.1 + Math.sin(i / 29) * 0.1;
    const temperature = (running ? 78 : 64) + Math.sin(i / 31) * 2;
    this.holding.writeFloatBE(pressure, HOLDING.pressure * 2);
    this.holding.writeInt16BE(Math.round(temperature * 10), HOLDING.motorTemperature * 2);
    this.holding.writeUInt16BE((running ? 1 << RUNNING_BIT : 0) | (alarm ? 1 << ALARM_BIT : 0), HOLDING.status * 2);
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(this.runningSeconds);
    writeSwapped(this.input, INPUT.runningSeconds, counter);
    const energy = Buffer.alloc(4);
    energy.writeFloatBE(this.energy);
    writeSwapped(this.input, INPUT.energy, energy);
    this.coils[0] = running ? 1 : 0;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }
}
