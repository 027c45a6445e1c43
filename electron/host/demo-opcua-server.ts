import fs from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import type { OPCUACertificateManager, OPCUAServer, UAVariable } from 'node-opcua';
import type { ConfigurationInput } from '../../shared/config/schema.js';

/** node-opcua, loaded only when the demo plant starts (it takes seconds to load on a busy PC). */
type Opcua = typeof import('node-opcua');

export const DEMO_OPCUA_RECEIVER = 'demo_plant_opcua';
const NAMESPACE = 'urn:tributary:demo-plant';

interface MachineSpec {
  name: string;
  temperature: { base: number; swing: number };
  speed: { base: number; swing: number };
}

/** The two simulated machines: node ids ns=2;s=<machine>.Temperature|Speed|State|PartCounter. */
const MACHINES: MachineSpec[] = [
  { name: 'Extruder_1', temperature: { base: 215, swing: 6 }, speed: { base: 62, swing: 4 } },
  { name: 'Molder_2', temperature: { base: 182, swing: 3 }, speed: { base: 24, swing: 2 } },
];
const TAGS = [
  { suffix: 'Temperature', exportname: 'temperature_C' },
  { suffix: 'Speed', exportname: 'speed_rpm' },
  { suffix: 'State', exportname: 'state' },
  { suffix: 'PartCounter', exportname: 'part_counter' },
] as const;

/** The demo receiver reading both machines from the simulated server on `port`. */
export function demoOpcuaReceiver(port: number): NonNullable<ConfigurationInput['data_receiver']>[number] {
  return {
    data_receiver_name: DEMO_OPCUA_RECEIVER,
    protocol: 'opcua',
    read_mode: 'subscription',
    sampling_interval_ms: 1000,
    connections: [{ connection_name: 'simulated_plc', host: '127.0.0.1', port, timeout: 5, security_mode: 'None' }],
    streams: MACHINES.map((m) => ({
      asset: m.name,
      stream_type: 'process',
      opcua_tags: TAGS.map((t) => ({ name: `ns=2;s=${m.name}.${t.suffix}`, exportname: t.exportname })),
    })),
  };
}

/**
 * node-opcua's minimal nodeset (base types, the Objects folder) instead of the full standard one
 * (thousands of nodes): the two simulated machines need no more, and the standard address space
 * alone kept ~30 MB of the running demo's memory (docs/performance.md, Idle).
 */
function minimalNodeset(): string {
  const addressSpacePackage = createRequire(import.meta.url).resolve('node-opcua-address-space/package.json');
  return path.join(path.dirname(addressSpacePackage), 'nodesets', 'mini.Nodeset2.xml');
}

/** Port of the demo receiver in a saved configuration, so that a restarted demo keeps its address. */
function savedPort(dataDirectory: string): number | undefined {
  try {
    const saved = JSON.parse(fs.readFileSync(path.join(dataDirectory, 'conf.d', 'tributary.json'), 'utf8')) as { data_receiver?: { data_receiver_name?: string; connections?: { port?: number }[] }[] };
    const port = saved.data_receiver?.find((r) => r.data_receiver_name === DEMO_OPCUA_RECEIVER)?.connections?.[0]?.port;
    return typeof port === 'number' ? port : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The loopback port for the simulated server: the one of the saved demo configuration while it is
 * free (a restarted demo keeps its address), else a free one. Chosen before the server starts so
 * that the demo configuration can be saved without waiting for it.
 */
export async function demoOpcuaPort(dataDirectory: string): Promise<number> {
  const preferred = savedPort(dataDirectory);
  if (preferred !== undefined && (await probe(preferred)) !== undefined) return preferred;
  return (await probe(0))!;
}

function probe(port: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(undefined));
    server.listen(port, '127.0.0.1', () => {
      const chosen = (server.address() as net.AddressInfo).port;
      server.close(() => resolve(chosen));
    });
  });
}

/**
 * An in-process node-opcua server simulating two machines for `--demo`: every second each machine
 * updates temperature, speed, state and part counter with one source timestamp. Loopback only; its
 * certificate is kept in <data-dir>/demo/opcua-server-pki. It offers None and
 * SignAndEncrypt/Basic256Sha256, so the security settings can be tried against it.
 */
export class DemoOpcuaPlant {
  private timer: NodeJS.Timeout | undefined;
  private tick = 0;
  private readonly variables = new Map<string, UAVariable>();
  private readonly counters = new Map<string, number>();

  private constructor(
    private readonly opcua: Opcua,
    private readonly server: OPCUAServer,
    private readonly certificates: readonly OPCUACertificateManager[],
    readonly port: number,
  ) {}

  /** Starts on `port` (see demoOpcuaPort). */
  static async start(dataDirectory: string, port: number): Promise<DemoOpcuaPlant> {
    const opcua = await import('node-opcua');
    // Routes node-opcua's console output away from stdout (see opcua-log.ts).
    await import('../agent/receivers/opcua/opcua-log.js');
    const { MessageSecurityMode, OPCUACertificateManager, OPCUAServer, SecurityPolicy } = opcua;
    const certificates = new OPCUACertificateManager({ rootFolder: path.join(dataDirectory, 'demo', 'opcua-server-pki'), automaticallyAcceptUnknownCertificate: true });
    await certificates.initialize();
    // Its own user PKI: node-opcua's default one in ~/.config is shared by every process and hangs
    // when two initialize it at once.
    const userCertificates = new OPCUACertificateManager({ rootFolder: path.join(dataDirectory, 'demo', 'opcua-user-pki'), automaticallyAcceptUnknownCertificate: false });
    await userCertificates.initialize();
    const server = new OPCUAServer({
      port,
      hostname: '127.0.0.1',
      alternateHostname: ['127.0.0.1'],
      serverCertificateManager: certificates,
      userCertificateManager: userCertificates,
      securityModes: [MessageSecurityMode.None, MessageSecurityMode.SignAndEncrypt],
      securityPolicies: [SecurityPolicy.None, SecurityPolicy.Basic256Sha256],
      allowAnonymous: true,
      nodeset_filename: [minimalNodeset()],
      serverInfo: { applicationName: { text: 'Tributary demo plant' } },
    });
    try {
      await server.initialize();
      await server.start();
    } catch (cause) {
      await server.shutdown(0).catch(() => undefined);
      await certificates.dispose();
      await userCertificates.dispose();
      throw cause;
    }
    const plant = new DemoOpcuaPlant(opcua, server, [certificates, userCertificates], server.endpoints[0]!.port);
    plant.build();
    return plant;
  }

  private build(): void {
    const addressSpace = this.server.engine.addressSpace!;
    const namespace = addressSpace.registerNamespace(NAMESPACE);
    const plant = namespace.addObject({ organizedBy: addressSpace.rootFolder.objects, browseName: 'DemoPlant', nodeId: 's=DemoPlant' });
    for (const machine of MACHINES) {
      const folder = namespace.addObject({ organizedBy: plant, browseName: machine.name, nodeId: `s=${machine.name}` });
      const add = (suffix: string, dataType: string) =>
        this.variables.set(`${machine.name}.${suffix}`, namespace.addVariable({ componentOf: folder, nodeId: `s=${machine.name}.${suffix}`, browseName: suffix, dataType, minimumSamplingInterval: 100 }));
      add('Temperature', 'Double');
      add('Speed', 'Double');
      add('State', 'String');
      add('PartCounter', 'UInt32');
      this.counters.set(machine.name, 0);
    }
    this.step();
    this.timer = setInterval(() => this.step(), 1000);
    this.timer.unref();
  }

  private step(): void {
    const i = this.tick++;
    const now = new Date();
    const { DataType, StatusCodes, Variant } = this.opcua;
    MACHINES.forEach((machine, m) => {
      // Mostly running; a short stop every few minutes, a fault now and then.
      const phase = (i + m * 37) % 180;
      const state = phase >= 170 ? 'Fault' : phase >= 155 ? 'Idle' : 'Running';
      const running = state === 'Running';
      if (running) this.counters.set(machine.name, this.counters.get(machine.name)! + 1);
      const temperature = machine.temperature.base + Math.sin((i + m * 11) / 17) * machine.temperature.swing - (running ? 0 : 8);
      const speed = running ? machine.speed.base + Math.cos((i + m * 5) / 9) * machine.speed.swing : 0;
      const set = (suffix: string, dataType: number, value: unknown) =>
        this.variables.get(`${machine.name}.${suffix}`)!.setValueFromSource(new Variant({ dataType, value }), StatusCodes.Good, now);
      set('Temperature', DataType.Double, Math.round(temperature * 100) / 100);
      set('Speed', DataType.Double, Math.round(speed * 100) / 100);
      set('State', DataType.String, state);
      set('PartCounter', DataType.UInt32, this.counters.get(machine.name)!);
    });
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.server.shutdown(0).catch(() => undefined);
    for (const manager of this.certificates) await manager.dispose().catch(() => undefined);
  }
}
