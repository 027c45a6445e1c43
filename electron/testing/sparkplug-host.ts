/**
 * Test support for Sparkplug B: a host application made of an MQTT client and Eclipse Tahu's codec
 * (`sparkplug-payload`), not Tributary's. It keeps every message of a group in order, decoded, and
 * can send what a host sends: NCMD rebirth and its STATE (Sparkplug 3.0). Loopback only.
 */
import { createRequire } from 'node:module';
import type { MqttClient } from 'mqtt';
import type { UPayload } from 'sparkplug-payload/lib/sparkplugbpayload.js';
import { waitFor } from './file-plant.js';
import { testClient } from './mqtt-broker.js';

type Tahu = NonNullable<ReturnType<typeof import('sparkplug-payload').get>>;
export const tahu = (createRequire(import.meta.url)('sparkplug-payload') as typeof import('sparkplug-payload')).get('spBv1.0') as Tahu;

type Long = { toNumber(): number; toSigned(): Long };
/**
 * A number of a Tahu payload: 64-bit ones are Long objects; an Int64 travels as two's complement in
 * the proto's uint64 field, which this Tahu build leaves unsigned when its Long class is another copy.
 */
export function plain(value: unknown, type?: string): unknown {
  if (value === null || typeof value !== 'object' || !('toNumber' in value)) return value;
  return type === 'Int64' ? (value as Long).toSigned().toNumber() : (value as Long).toNumber();
}

export interface HostMessage {
  topic: string;
  /** NBIRTH, DBIRTH, DDATA, NDEATH … */
  type: string;
  device?: string;
  seq?: number;
  payload: UPayload;
  /** name → value (numbers plain) of the payload's metrics, the last one of each name. */
  values: Record<string, unknown>;
}

export class SparkplugHost {
  readonly messages: HostMessage[] = [];
  private client: MqttClient | undefined;

  constructor(
    readonly group: string,
    private readonly port?: number,
  ) {}

  async start(): Promise<this> {
    const client = await testClient(this.port === undefined ? {} : { port: this.port });
    client.on('error', () => undefined);
    client.on('message', (topic, payload) => {
      const levels = topic.split('/');
      if (levels[2] === 'NCMD' || levels[2] === 'DCMD') return;
      const decoded = tahu.decodePayload(payload);
      const values: Record<string, unknown> = {};
      for (const m of decoded.metrics ?? []) values[m.name ?? ''] = plain(m.value, m.type);
      const seq = decoded.seq === undefined || decoded.seq === null ? undefined : (plain(decoded.seq) as number);
      this.messages.push({ topic, type: levels[2]!, device: levels[4], seq, payload: decoded, values });
    });
    await client.subscribeAsync(`spBv1.0/${this.group}/#`, { qos: 1 });
    this.client = client;
    return this;
  }

  of(type: string, device?: string): HostMessage[] {
    return this.messages.filter((m) => m.type === type && (device === undefined || m.device === device));
  }

  /** Every metric of every DDATA of a device, in order, as [name, type, value, timestamp]. */
  dataMetrics(device: string): [string, string, unknown, number][] {
    return this.of('DDATA', device).flatMap((m) => (m.payload.metrics ?? []).map((x) => [x.name!, x.type, plain(x.value, x.type), plain(x.timestamp) as number] as [string, string, unknown, number]));
  }

  async waitFor<T>(check: () => T | undefined | false, what: string, ms = 30_000): Promise<T> {
    return waitFor(() => check() || undefined, ms, `${what} (have ${this.messages.map((m) => m.type + (m.device ? `:${m.device}` : '')).join(' ')})`) as Promise<T>;
  }

  async rebirth(node: string): Promise<void> {
    const payload = tahu.encodePayload({ timestamp: Date.now(), metrics: [{ name: 'Node Control/Rebirth', type: 'Boolean', value: true }] });
    await this.client!.publishAsync(`spBv1.0/${this.group}/NCMD/${node}`, Buffer.from(payload), { qos: 0 });
  }

  /** Publishes the retained STATE of a primary host, as a Sparkplug 3.0 host application does. */
  async state(hostId: string, online: boolean, timestamp = Date.now()): Promise<void> {
    await this.client!.publishAsync(`spBv1.0/STATE/${hostId}`, JSON.stringify({ online, timestamp }), { qos: 1, retain: true });
  }

  async clearState(hostId: string): Promise<void> {
    await this.client!.publishAsync(`spBv1.0/STATE/${hostId}`, '', { qos: 1, retain: true });
  }

  async close(): Promise<void> {
    await this.client?.endAsync(true).catch(() => undefined);
  }
}
