/**
 * The Sparkplug B edge node of an mqtt transmit (payload_format "sparkplug_b", docs/mqtt.md):
 * NDEATH as the MQTT will of each connection, NBIRTH (bdSeq, Node Control/Rebirth) once connected,
 * a DBIRTH per device (= the record's asset) before its first DDATA on a connection and again when
 * a metric appears or changes type, seq 0–255 across births and data, NCMD Rebirth, and with
 * primary_host_id no births and no data until that host's STATE (Sparkplug 3.0) says online.
 * The outbox (MqttTransmit) keeps what is not sent; this class only keeps what a birth needs.
 */
import { say, type AgentMessage } from '../../../../shared/config/message.js';
import fs from 'node:fs';
import path from 'node:path';
import type { IClientOptions, MqttClient } from 'mqtt';
import type { Logger } from '../../logging/logger.js';
import { RepeatedWarning } from '../../logging/repeated-warning.js';
import { type Disposable, DisposableStore } from '../../lifecycle/index.js';
import { DataType, ProtoWriter, SparkplugFormatError, payloadWith, writeMetric } from '../../mqtt/sparkplug-codec.js';
import { decodePayload } from '../../mqtt/sparkplug-decode.js';
import type { SparkplugBatch } from './sparkplug-outbox.js';

export const NAMESPACE = 'spBv1.0';
export const REBIRTH_METRIC = 'Node Control/Rebirth';
/** A STATE message is a small JSON object: anything bigger is not one. */
const MAX_STATE_BYTES = 4096;
const MAX_COMMAND_BYTES = 1 << 20;
/**
 * How far ahead of this agent's clock a STATE time stamp may be (docs/decisions/0060): a later one
 * is not the host's, it would make every true STATE after it look older and be ignored.
 */
export const MAX_STATE_AHEAD_MS = 10 * 60_000;
/**
 * Rebirths asked by NCMD at most this often: each re-announces every device, and anyone on the
 * broker can ask thousands. Requests within the window are answered by one rebirth at its end.
 */
export const REBIRTH_MIN_INTERVAL_MS = 2000;

export interface EdgeSettings {
  group_id?: string;
  edge_node_id?: string;
  primary_host_id?: string;
}

export interface EdgeEvents {
  /** Births are out: data may be published. */
  ready(): void;
  /** Waiting for the primary host (a message), or no longer (undefined). */
  waiting(said: AgentMessage | undefined): void;
  /** The birth state changed (for the status). */
  changed(): void;
}

export type BirthState = 'disconnected' | 'waiting_for_host' | 'born';

interface KnownMetric {
  datatype: number;
  /** The Payload.metrics entry of its last value sent: what the next DBIRTH says. */
  last: Buffer;
}

/** A device id is one topic level: an asset's /, + and # become _. */
export function deviceId(asset: string): string {
  return asset.replace(/[/+#]/g, '_') || '_';
}

export class SparkplugEdge {
  readonly group: string;
  readonly node: string;
  private bdSeq: number;
  private seq = 0;
  private client: MqttClient | undefined;
  private stateValue: BirthState = 'disconnected';
  private readonly devices = new Map<string, Map<string, KnownMetric>>();
  private readonly born = new Set<string>();
  private hostTime = -1;
  /** The primary host's last STATE: online, offline, or not heard yet (undefined). */
  private hostOnline: boolean | undefined;
  /** When the last NBIRTH was published (ms), for the console: "NBIRTH sent 14:02". */
  private bornAt: number | undefined;
  private readonly bdSeqFile: string;
  /** A rebirth asked within REBIRTH_MIN_INTERVAL_MS of the last birth waits for this timer. */
  /** The edge outlives a connection: its rebirth timer is dropped on each disconnect and at death. */
  private readonly timers = new DisposableStore();
  private rebirthTimer: Disposable | undefined;
  /** Unreadable commands and STATE messages: anyone on the broker can send thousands. */
  private readonly noise: RepeatedWarning;

  constructor(
    private readonly settings: EdgeSettings,
    dataDirectory: string,
    private readonly logger: Logger,
    private readonly events: EdgeEvents,
  ) {
    this.group = settings.group_id ?? '';
    this.node = settings.edge_node_id ?? '';
    this.bdSeqFile = path.join(dataDirectory, 'sparkplug-bdseq.txt');
    this.noise = new RepeatedWarning((message) => this.logger.warn(message));
    const stored = Number.parseInt(readOr(this.bdSeqFile, '-1'), 10);
    this.bdSeq = Number.isInteger(stored) && stored >= 0 && stored <= 255 ? stored : -1;
  }

  get state(): BirthState {
    return this.stateValue;
  }

  get ready(): boolean {
    return this.stateValue === 'born';
  }

  /** The node's birth state for the status (TransmitStats.sparkplug). */
  snapshot() {
    return {
      state: this.stateValue,
      group_id: this.group,
      edge_node_id: this.node,
      bd_seq: this.bdSeq,
      devices_born: this.born.size,
      born_at: this.bornAt === undefined ? null : new Date(this.bornAt).toISOString(),
      primary_host_id: this.settings.primary_host_id ?? null,
      host_online: this.settings.primary_host_id === undefined ? null : (this.hostOnline ?? null),
      message: this.describe(),
    };
  }

  /** What the status shows about this node. */
  describe(): string {
    const node = `${this.group}/${this.node}`;
    if (this.stateValue === 'born') return `Edge node ${node} born (bdSeq ${this.bdSeq}, ${this.born.size} device(s) born).`;
    if (this.stateValue === 'waiting_for_host') {
      const heard = this.hostOnline === undefined ? 'no STATE heard yet' : 'it is offline';
      return `Edge node ${node} waits for primary host ${this.settings.primary_host_id} to be online (${heard}).`;
    }
    return `Edge node ${node} is not connected.`;
  }

  topic(type: string, device?: string): string {
    return `${NAMESPACE}/${this.group}/${type}/${this.node}${device === undefined ? '' : `/${device}`}`;
  }

  /**
   * The will of the next connection: NDEATH with a new bdSeq (kept on disk, so that an NDEATH of
   * the connection before a crash never matches the births after it).
   */
  nextWill(): NonNullable<IClientOptions['will']> {
    this.bdSeq = (this.bdSeq + 1) % 256;
    try {
      fs.mkdirSync(path.dirname(this.bdSeqFile), { recursive: true });
      fs.writeFileSync(this.bdSeqFile, String(this.bdSeq));
    } catch (cause) {
      this.logger.warn(`Cannot keep the Sparkplug bdSeq in ${this.bdSeqFile}: ${(cause as Error).message}.`);
    }
    return { topic: this.topic('NDEATH'), payload: this.deathPayload(), qos: 1, retain: false };
  }

  connected(client: MqttClient): void {
    this.client = client;
    this.born.clear();
    const host = this.settings.primary_host_id;
    const subscriptions: Record<string, { qos: 1 }> = { [this.topic('NCMD')]: { qos: 1 } };
    if (host !== undefined) subscriptions[`${NAMESPACE}/STATE/${host}`] = { qos: 1 };
    client.on('message', (topic, payload) => this.onMessage(client, topic, payload));
    client.subscribe(subscriptions);
    if (host === undefined) this.birth();
    else {
      this.stateValue = 'waiting_for_host';
      this.events.changed();
      this.events.waiting(say('sparkplug.waiting_for_host', 'Sparkplug: waiting for primary host {host} to be online (its STATE); the records are kept meanwhile.', { host }));
    }
  }

  disconnected(): void {
    this.client = undefined;
    if (this.rebirthTimer) this.timers.delete(this.rebirthTimer);
    this.rebirthTimer = undefined;
    // Heard again on the next connection (the STATE is retained): the broker's retained STATE is
    // then the truth, whatever time stamp was stored before.
    this.hostOnline = undefined;
    this.hostTime = -1;
    this.stateValue = 'disconnected';
    this.born.clear();
    this.events.changed();
  }

  /** A graceful stop: NDEATH before the connection closes (the will is only sent on a crash). */
  death(): void {
    if (this.client && this.stateValue === 'born') this.client.publish(this.topic('NDEATH'), this.deathPayload(), { qos: 0 });
    if (this.rebirthTimer) this.timers.delete(this.rebirthTimer);
    this.rebirthTimer = undefined;
    this.noise.close();
  }

  /** The DDATA of a stored batch, after the device's DBIRTH when it needs one. */
  data(batch: SparkplugBatch): { topic: string; payload: Buffer } {
    const device = deviceId(batch.asset);
    let known = this.devices.get(device);
    if (!known) this.devices.set(device, (known = new Map()));
    let rebirth = !this.born.has(device);
    for (const [name, datatype, start, end] of batch.metrics) {
      const seen = known.get(name);
      if (!seen || seen.datatype !== datatype) rebirth = true;
      known.set(name, { datatype, last: Buffer.from(batch.body.subarray(start, end)) });
    }
    if (rebirth) {
      this.deviceBirth(device);
      this.events.changed();
    }
    return { topic: this.topic('DDATA', device), payload: payloadWith(batch.body, Date.now(), this.nextSeq()) };
  }

  private nextSeq(): number {
    const seq = this.seq;
    this.seq = (this.seq + 1) % 256;
    return seq;
  }

  private deathPayload(): Buffer {
    const metrics = new ProtoWriter(64);
    writeMetric(metrics, Buffer.from('bdSeq'), DataType.Int64, Date.now(), this.bdSeq);
    return payloadWith(metrics.finish(), Date.now(), undefined);
  }

  /** NBIRTH with seq 0, then a DBIRTH for every device known (a rebirth re-announces them all). */
  private birth(): void {
    const client = this.client;
    if (!client) return;
    const now = Date.now();
    const metrics = new ProtoWriter(128);
    writeMetric(metrics, Buffer.from('bdSeq'), DataType.Int64, now, this.bdSeq);
    writeMetric(metrics, Buffer.from(REBIRTH_METRIC), DataType.Boolean, now, false);
    this.seq = 0;
    client.publish(this.topic('NBIRTH'), payloadWith(metrics.finish(), now, this.nextSeq()), { qos: 0 });
    this.bornAt = now;
    this.born.clear();
    for (const device of this.devices.keys()) this.deviceBirth(device);
    const first = this.stateValue !== 'born';
    this.stateValue = 'born';
    if (first) this.logger.info(`Sparkplug: edge node ${this.group}/${this.node} born (bdSeq ${this.bdSeq}).`);
    this.events.waiting(undefined);
    this.events.changed();
    this.events.ready();
  }

  private deviceBirth(device: string): void {
    const client = this.client;
    if (!client) return;
    const metrics = [...this.devices.get(device)!.values()].map((m) => m.last);
    client.publish(this.topic('DBIRTH', device), payloadWith(Buffer.concat(metrics), Date.now(), this.nextSeq()), { qos: 0 });
    this.born.add(device);
  }

  private onMessage(client: MqttClient, topic: string, payload: Buffer): void {
    if (client !== this.client) return;
    if (topic === this.topic('NCMD')) return this.onCommand(payload);
    if (topic === `${NAMESPACE}/STATE/${this.settings.primary_host_id}`) this.onState(payload);
  }

  private onCommand(payload: Buffer): void {
    try {
      if (payload.length > MAX_COMMAND_BYTES) throw new SparkplugFormatError(`${payload.length} bytes is too big for a command`);
      const rebirth = decodePayload(payload, 1000).metrics.some((m) => m.name === REBIRTH_METRIC && m.booleanValue === true);
      if (!rebirth || this.stateValue !== 'born') return;
      this.rebirthSoon();
    } catch (cause) {
      this.noise.warn('command', `Sparkplug: a command on ${this.topic('NCMD')} could not be read (${(cause as Error).message.slice(0, 200)}); it was skipped.`);
    }
  }

  /** A rebirth now, or at the end of the window after the last birth (one for all asked within it). */
  private rebirthSoon(): void {
    if (this.rebirthTimer) return;
    const wait = this.bornAt === undefined ? 0 : this.bornAt + REBIRTH_MIN_INTERVAL_MS - Date.now();
    const rebirth = () => {
      this.rebirthTimer = undefined;
      if (this.stateValue !== 'born') return;
      this.logger.info(`Sparkplug: rebirth requested on ${this.topic('NCMD')}.`);
      this.birth();
    };
    if (wait <= 0) return rebirth();
    this.rebirthTimer = this.timers.setTimeout(rebirth, wait);
  }

  /**
   * Sparkplug 3.0 STATE: {"online": true|false, "timestamp": ms}; older time stamps are ignored. A
   * time stamp that is not a finite number of ms from 1970 up to MAX_STATE_AHEAD_MS ahead of this
   * clock is not the host's ({"timestamp": 1e400} is Infinity): that STATE is skipped.
   */
  private onState(payload: Buffer): void {
    const host = this.settings.primary_host_id;
    let state: { online?: unknown; timestamp?: unknown };
    try {
      if (payload.length > MAX_STATE_BYTES) throw new Error(`${payload.length} bytes`);
      state = JSON.parse(payload.toString('utf8')) as typeof state;
      if (typeof state !== 'object' || state === null || typeof state.online !== 'boolean') throw new Error('no "online" true or false');
      const t = state.timestamp;
      if (t !== undefined && (typeof t !== 'number' || !Number.isFinite(t) || t < 0)) throw new Error(`the time stamp ${String(t).slice(0, 40)} is not a time`);
      if (typeof t === 'number' && t > Date.now() + MAX_STATE_AHEAD_MS) throw new Error(`the time stamp ${t} is more than ${MAX_STATE_AHEAD_MS / 60_000} minutes ahead of this clock`);
    } catch (cause) {
      this.noise.warn('state', `Sparkplug: the STATE of primary host ${host} could not be read (${(cause as Error).message}); it was skipped.`);
      return;
    }
    const time = typeof state.timestamp === 'number' ? state.timestamp : 0;
    if (time < this.hostTime) return;
    this.hostTime = time;
    this.hostOnline = state.online;
    this.events.changed();
    if (state.online && this.stateValue === 'waiting_for_host') {
      this.logger.info(`Sparkplug: primary host ${host} is online.`);
      this.birth();
    } else if (!state.online && this.stateValue === 'born') {
      // The host cannot take data: the node is dead to it until the host is back, then born again.
      this.client?.publish(this.topic('NDEATH'), this.deathPayload(), { qos: 0 });
      this.stateValue = 'waiting_for_host';
      this.events.changed();
      this.logger.warn(`Sparkplug: primary host ${host} went offline; publishing waits until it is online again.`);
      this.events.waiting(say('sparkplug.host_offline', 'Sparkplug: primary host {host} is offline; the records are kept and sent when it is online again.', { host: String(host) }));
    }
  }
}

function readOr(file: string, fallback: string): string {
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    return fallback;
  }
}
