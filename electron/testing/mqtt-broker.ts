/**
 * Test support for MQTT: the throwaway Mosquitto of scripts/ci/start-mosquitto.sh, private brokers
 * that a test may stop and start (same users, ACL and certificates, own port and state), and a
 * subscriber/publisher to talk to them. Loopback only.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { type IClientOptions, type MqttClient, connectAsync } from 'mqtt';
import { waitFor } from './file-plant.js';
import { tempDirectory } from './test-host.js';

const STATE = '/tmp/tributary-mosquitto';

export const BROKER = {
  host: '127.0.0.1',
  port: 51883,
  tlsPort: 58883,
  caFile: path.join(STATE, 'ca.crt'),
  username: 'tributary',
  password: 'tributary-mqtt-pass',
  /** May read and write only below allowed/. */
  limited: { username: 'limited', password: 'tributary-mqtt-limited' },
  script: 'scripts/ci/start-mosquitto.sh',
} as const;

let clients = 0;
const uniqueId = (prefix: string) => `${prefix}-${process.pid}-${Date.now().toString(36)}-${(clients += 1)}`;

/** Connects a test client (tributary user) or fails saying how to start the broker. */
export async function testClient(options: IClientOptions & { port?: number } = {}): Promise<MqttClient> {
  try {
    return await connectAsync({
      host: BROKER.host,
      port: BROKER.port,
      username: BROKER.username,
      password: BROKER.password,
      protocolVersion: 5,
      clientId: uniqueId('test'),
      reconnectPeriod: 0,
      connectTimeout: 5000,
      ...options,
    });
  } catch (cause) {
    throw new Error(`The Mosquitto test broker is not reachable on 127.0.0.1:${options.port ?? BROKER.port} (${(cause as Error).message}): run bash ${BROKER.script}`);
  }
}

export interface Received {
  topic: string;
  text: string;
  /** Parsed JSON, or undefined for other payloads. */
  json: any;
}

/**
 * Subscribes (QoS 1, persistent session) and keeps every message. With a persistent session the
 * broker keeps queuing while the subscriber's broker is down, so a restart loses nothing.
 */
export class TestSubscriber {
  readonly messages: Received[] = [];
  private client: MqttClient | undefined;
  private readonly clientId = uniqueId('subscriber');

  constructor(
    private readonly filter: string,
    private readonly port: number = BROKER.port,
  ) {}

  async start(): Promise<this> {
    const client = await testClient({ port: this.port, clientId: this.clientId, clean: false, properties: { sessionExpiryInterval: 3600 } });
    client.on('error', () => undefined);
    client.on('message', (topic, payload) => {
      const text = payload.toString('utf8');
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      this.messages.push({ topic, text, json });
    });
    await client.subscribeAsync(this.filter, { qos: 1 });
    this.client = client;
    return this;
  }

  /** The records received: one per message, or every element of array messages. */
  records(): any[] {
    return this.messages.flatMap((m) => (Array.isArray(m.json) ? m.json : [m.json]));
  }

  async waitForRecords(count: number, ms = 30_000): Promise<any[]> {
    return waitFor(() => this.records().length >= count && this.records(), ms, `${count} MQTT records on ${this.filter} (have ${this.records().length})`);
  }

  /** Reconnects (same client id: the session and what the broker queued meanwhile come back). */
  async reconnect(): Promise<void> {
    await this.close();
    await waitFor(async () => {
      try {
        await this.start();
        return true;
      } catch {
        return false;
      }
    }, 20_000, `the subscriber to reconnect to port ${this.port}`);
  }

  async close(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    await client?.endAsync(true).catch(() => undefined);
  }
}

/**
 * How often a client id connected to the shared broker, from the broker's own log
 * (connection_messages): a kept session is one connection, a restarted component opens another.
 */
export function connectionsOf(clientId: string): number {
  const log = fs.readFileSync(path.join(STATE, 'mosquitto.log'), 'utf8');
  return log.split('\n').filter((line) => line.includes(' New client connected from ') && line.includes(` as ${clientId} (`)).length;
}

/** A free TCP port on loopback. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * A Mosquitto of the test's own, with the users and ACL of the shared one (its conf.d) and its own
 * port and persistence folder. `stop()` ends it like a service stop (state saved); `kill()` is
 * kill -9; `start()` again brings it back on the same port with the saved state.
 */
export class PrivateBroker {
  readonly directory = tempDirectory('tributary-mosquitto-');
  private child: ChildProcess | undefined;

  private constructor(readonly port: number) {}

  static async start(): Promise<PrivateBroker> {
    if (!fs.existsSync(path.join(STATE, 'conf.d', 'common.conf'))) throw new Error(`The Mosquitto test files are missing: run bash ${BROKER.script}`);
    const broker = new PrivateBroker(await freePort());
    await broker.start();
    return broker;
  }

  async start(): Promise<void> {
    const conf = path.join(this.directory, 'mosquitto.conf');
    fs.writeFileSync(
      conf,
      [`user root`, `persistence_location ${this.directory}/`, `log_dest file ${this.directory}/mosquitto.log`, `include_dir ${STATE}/conf.d`, `listener ${this.port} 127.0.0.1`, ''].join('\n'),
    );
    const binary = fs.existsSync('/usr/sbin/mosquitto') ? '/usr/sbin/mosquitto' : 'mosquitto';
    const child = spawn(binary, ['-c', conf], { stdio: 'ignore' });
    this.child = child;
    await waitFor(async () => {
      if (child.exitCode !== null) throw new Error(`mosquitto exited with ${child.exitCode}; see ${this.directory}/mosquitto.log`);
      const client = await testClient({ port: this.port, connectTimeout: 1000 }).catch(() => undefined);
      await client?.endAsync(true);
      return client !== undefined;
    }, 15_000, `the private broker on port ${this.port}`);
  }

  /** SIGTERM: Mosquitto saves its state and exits, as on a service stop. */
  stop(): Promise<void> {
    return this.end('SIGTERM');
  }

  /** kill -9: the broker dies at once. */
  kill(): Promise<void> {
    return this.end('SIGKILL');
  }

  private async end(signal: NodeJS.Signals): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const gone = new Promise((resolve) => child.once('exit', resolve));
    child.kill(signal);
    await gone;
  }

  async close(): Promise<void> {
    await this.stop();
    fs.rmSync(this.directory, { recursive: true, force: true });
  }
}
