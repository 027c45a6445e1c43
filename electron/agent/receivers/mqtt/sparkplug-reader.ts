/**
 * Sparkplug B messages → records (payload_format "sparkplug_b", docs/mqtt.md). The stream's topic
 * names the data (spBv1.0/<group>/DDATA/<node>/<device>, + and # allowed); the reader also reads
 * every message of the nodes it matches (spBv1.0/<group>/+/<node>/#): births give the metrics'
 * names for their aliases and their datatypes, and seq (0–255 across all messages of a node) is
 * checked. On a gap, or data from a node whose birth was not seen, the stream gets a marker and the
 * node is asked once for a rebirth (NCMD Node Control/Rebirth) until its NBIRTH comes.
 * Each metric set becomes records: one per time stamp (the metric's, else the payload's, else the
 * time of receipt), fields named by the metrics. Payloads are read by the bounded codec of
 * mqtt/sparkplug-codec.ts; compressed ones (Tahu's SPBV1.0_COMPRESSED) are inflated to at most
 * MAX_INFLATED_BYTES.
 */
import crypto from 'node:crypto';
import { gunzipSync, inflateSync } from 'node:zlib';
import type { z } from 'zod';
import type { MqttStreamSchema } from '../../../../shared/config/mqtt-schema.js';
import { topicMatches } from '../../../../shared/config/mqtt-topics.js';
import { type AgentRecord, type FieldValue, isoMicros } from '../../../../shared/records/record.js';
import type { StreamKey } from '../../components/contract.js';
import { DataType, ProtoWriter, SparkplugFormatError, payloadWith, writeMetric } from '../../mqtt/sparkplug-codec.js';
import { type DecodedPayload, decodePayload, metricValue } from '../../mqtt/sparkplug-decode.js';
import type { MessageReading } from './message-records.js';

type StreamConfig = z.infer<typeof MqttStreamSchema>;

const MAX_MESSAGE_BYTES = 16 << 20;
const MAX_INFLATED_BYTES = 16 << 20;
const COMPRESSED = 'SPBV1.0_COMPRESSED';
/** Milliseconds since 1970 a time stamp can have (year 275760). */
const MAX_TIME_MS = 8.64e15;
export const SEQ_GAP = 'sparkplug_seq_gap';

export interface SparkplugEvents {
  /** Sends a command to a node (NCMD rebirth); nothing when not connected. */
  publish(topic: string, payload: Buffer): void;
  warn(category: string, message: string): void;
  clear(category: string): void;
  /** false (a preview): nothing is sent, so a gap or a node not seen born asks for no rebirth. */
  readonly askRebirth?: boolean;
}

interface Names {
  aliases: Map<number, string>;
  types: Map<string, number>;
}

interface NodeState extends Names {
  seq: number | undefined;
  /** A rebirth was asked for and its NBIRTH has not come yet. */
  rebirthAsked: boolean;
}

/** The Sparkplug topics that carry the births and seq of the nodes a data filter matches. */
export function nodeFilter(filter: string): string {
  const levels = filter.split('/');
  if (levels.length < 2 || levels[1] === '#') return 'spBv1.0/#';
  // `#` stands last in a filter: a group's every node (`spBv1.0/Line3/DDATA/#`) or all of a group.
  if (levels.length < 4 || levels[2] === '#' || levels[3] === '#') return `spBv1.0/${levels[1]}/#`;
  return `spBv1.0/${levels[1]}/+/${levels[3]}/#`;
}

/**
 * Nodes and devices remembered at most (their aliases and types): a publisher that invents names
 * must not grow the memory without end. The oldest is forgotten first; it is asked for a rebirth
 * if it speaks again with aliases only.
 */
export const MAX_REMEMBERED_NODES = 1_000;
export const MAX_REMEMBERED_DEVICES = 10_000;

function remember<T>(map: Map<string, T>, key: string, value: T, limit: number): T {
  if (map.size >= limit) map.delete(map.keys().next().value!);
  map.set(key, value);
  return value;
}

export class SparkplugReader {
  readonly extraFilters: readonly string[];
  private readonly nodes = new Map<string, NodeState>();
  private readonly devices = new Map<string, Names>();

  constructor(
    readonly stream: StreamKey,
    private readonly config: StreamConfig,
    private readonly events: SparkplugEvents,
  ) {
    this.extraFilters = [nodeFilter(config.topic)];
  }

  /** Messages of the nodes this stream reads (births, data of other devices for seq) come here too. */
  accepts(topic: string): boolean {
    return topicMatches(this.extraFilters[0]!, topic) || topicMatches(this.config.topic, topic);
  }

  read(topic: string, payload: Buffer, receivedMicros: bigint): MessageReading {
    const levels = topic.split('/');
    const type = levels[2];
    if (levels[0] !== 'spBv1.0' || levels.length < 4 || levels.length > 5 || type === 'NCMD' || type === 'DCMD' || levels[1] === 'STATE') return { records: [], badTimestamps: 0 };
    let decoded: DecodedPayload;
    try {
      decoded = this.decode(payload);
    } catch (cause) {
      if (!(cause instanceof SparkplugFormatError) && !(cause instanceof RangeError) && !(cause as { code?: string }).code) throw cause;
      return { records: [], badTimestamps: 0, unreadable: `not a Sparkplug B payload (${(cause as Error).message})` };
    }
    const nodeKey = `${levels[1]}/${levels[3]}`;
    const node = this.node(nodeKey);
    if (type === 'NBIRTH') {
      node.seq = decoded.seq;
      node.rebirthAsked = false;
      this.learn(node, decoded, true);
      for (const key of this.devices.keys()) if (key.startsWith(`${nodeKey}/`)) this.devices.delete(key);
      this.events.clear(SEQ_GAP);
      return { records: [], badTimestamps: 0 };
    }
    if (type === 'NDEATH') {
      node.seq = undefined;
      return { records: [], badTimestamps: 0 };
    }
    this.checkSeq(topic, levels, node, decoded.seq);
    const device = levels[4] === undefined ? undefined : this.device(`${nodeKey}/${levels[4]}`);
    if (type === 'DBIRTH' && device) this.learn(device, decoded, true);
    if ((type !== 'DDATA' && type !== 'NDATA') || !topicMatches(this.config.topic, topic)) return { records: [], badTimestamps: 0 };
    return this.records(topic, payload, decoded, device ?? node, receivedMicros);
  }

  private decode(payload: Buffer): DecodedPayload {
    if (payload.length > MAX_MESSAGE_BYTES) throw new SparkplugFormatError(`${payload.length} bytes is more than ${MAX_MESSAGE_BYTES}`);
    const decoded = decodePayload(payload);
    if (decoded.uuid !== COMPRESSED || !decoded.body) return decoded;
    const algorithm = decoded.metrics.find((m) => m.name === 'algorithm')?.stringValue?.toUpperCase() ?? 'DEFLATE';
    const inflate = algorithm === 'GZIP' ? gunzipSync : inflateSync;
    return decodePayload(inflate(decoded.body, { maxOutputLength: MAX_INFLATED_BYTES }));
  }

  private node(key: string): NodeState {
    let node = this.nodes.get(key);
    if (!node) node = remember(this.nodes, key, { seq: undefined, rebirthAsked: false, aliases: new Map(), types: new Map() }, MAX_REMEMBERED_NODES);
    return node;
  }

  private device(key: string): Names {
    let device = this.devices.get(key);
    if (!device) device = remember(this.devices, key, { aliases: new Map(), types: new Map() }, MAX_REMEMBERED_DEVICES);
    return device;
  }

  private learn(names: Names, decoded: DecodedPayload, birth: boolean): void {
    if (birth) {
      names.aliases.clear();
      names.types.clear();
    }
    for (const metric of decoded.metrics) {
      if (metric.name === undefined) continue;
      if (metric.alias !== undefined) names.aliases.set(metric.alias, metric.name);
      if (metric.datatype !== undefined) names.types.set(metric.name, metric.datatype);
    }
  }

  /** seq must follow the node's last one; a gap (or no birth seen) asks for a rebirth once. */
  private checkSeq(topic: string, levels: string[], node: NodeState, seq: number | undefined): void {
    const nodeTopic = `spBv1.0/${levels[1]}/NCMD/${levels[3]}`;
    let problem: string | undefined;
    if (node.seq === undefined) problem = `Sparkplug: no NBIRTH of node ${levels[1]}/${levels[3]} seen before ${topic}`;
    else if (seq !== undefined && seq !== (node.seq + 1) % 256)
      problem = `Sparkplug: seq gap from node ${levels[1]}/${levels[3]} on ${topic}: expected ${(node.seq + 1) % 256}, got ${seq} (messages lost or out of order)`;
    if (seq !== undefined) node.seq = seq;
    if (problem === undefined) return;
    if (node.rebirthAsked) return;
    node.rebirthAsked = true;
    if (this.events.askRebirth === false) {
      this.events.warn(SEQ_GAP, `${problem}: metric names come from the data itself, aliases cannot be read. The preview asks for no rebirth; the running receiver does (NCMD on ${nodeTopic}).`);
      return;
    }
    this.events.warn(SEQ_GAP, `${problem}; a rebirth was requested (NCMD on ${nodeTopic}).`);
    const metrics = new ProtoWriter(64);
    writeMetric(metrics, Buffer.from('Node Control/Rebirth'), DataType.Boolean, Date.now(), true);
    this.events.publish(nodeTopic, payloadWith(metrics.finish(), Date.now(), undefined));
  }

  private records(topic: string, payload: Buffer, decoded: DecodedPayload, names: Names, receivedMicros: bigint): MessageReading {
    const captured = isoMicros(receivedMicros);
    const payloadMicros = decoded.timestamp === undefined || decoded.timestamp > MAX_TIME_MS ? receivedMicros : BigInt(decoded.timestamp) * 1000n;
    const out: MessageReading = { records: [], badTimestamps: 0 };
    const base = crypto.createHash('sha256').update(`${this.stream.asset}\0${this.stream.stream_type}\0${topic}\0`).update(payload).digest('hex');
    let current: Record<string, FieldValue> | undefined;
    let currentMicros: bigint | undefined;
    let unnamed = 0;
    const emit = () => {
      if (!current) return;
      if (this.config.topic_field !== undefined) current[this.config.topic_field] = topic;
      const timestamp = isoMicros(currentMicros!);
      const index = out.records.length;
      const id = crypto.createHash('sha256').update(`${base}\0${index}`).digest('hex').slice(0, 32);
      out.records.push({ asset: this.stream.asset, stream_type: this.stream.stream_type, timestamp, capturetime: captured, fieldvalues: current, record_id: id } satisfies AgentRecord);
    };
    for (const metric of decoded.metrics) {
      const name = metric.name ?? (metric.alias === undefined ? undefined : names.aliases.get(metric.alias));
      if (name === undefined) {
        unnamed += 1;
        continue;
      }
      const value = metricValue(metric, metric.datatype ?? names.types.get(name));
      if (value === undefined) continue;
      let micros = payloadMicros;
      if (metric.timestamp !== undefined && metric.timestamp <= MAX_TIME_MS) micros = BigInt(metric.timestamp) * 1000n;
      else if (metric.timestamp !== undefined) {
        out.badTimestamps += 1;
        out.badTimestampExample ??= String(metric.timestamp);
      }
      if (!current || micros !== currentMicros || Object.hasOwn(current, name)) {
        emit();
        current = {};
        currentMicros = micros;
      }
      current[name] = value;
    }
    emit();
    if (unnamed > 0) this.events.warn('sparkplug_alias_unknown', `Sparkplug: ${unnamed} metric(s) on ${topic} had an alias no birth named; they were skipped.`);
    else this.events.clear('sparkplug_alias_unknown');
    return out;
  }
}
