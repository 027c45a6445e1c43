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
import { say, type AgentMessage } from '../../../../shared/config/message.js';
import crypto from 'node:crypto';
import { gunzipSync, inflateSync } from 'node:zlib';
import type { z } from 'zod';
import type { MqttStreamSchema } from '../../../../shared/config/mqtt-schema.js';
import { topicMatches } from '../../../../shared/config/mqtt-topics.js';
import { type AgentRecord, type FieldValue, isoMicros } from '../../../../shared/records/record.js';
import type { StreamKey } from '../../components/contract.js';
import { DataType, MAX_METRICS, ProtoWriter, SparkplugFormatError, payloadWith, writeMetric } from '../../mqtt/sparkplug-codec.js';
import { type DecodedPayload, decodePayload, metricValue } from '../../mqtt/sparkplug-decode.js';
import type { MessageReading } from './message-records.js';
import { MAX_DEVICES_PER_NODE, MAX_NAME_BYTES, MAX_REMEMBERED_DEVICES, MAX_REMEMBERED_ENTRIES, NameBook, type Names, type NodeState, emptyNames } from './sparkplug-names.js';

export { MAX_REMEMBERED_NODES } from './sparkplug-names.js';

type StreamConfig = z.infer<typeof MqttStreamSchema>;

const MAX_MESSAGE_BYTES = 16 << 20;
const MAX_INFLATED_BYTES = 16 << 20;
const COMPRESSED = 'SPBV1.0_COMPRESSED';
/** Milliseconds since 1970 a time stamp can have (year 275760). */
const MAX_TIME_MS = 8.64e15;
export const SEQ_GAP = 'sparkplug_seq_gap';
export const BOUNDS = 'sparkplug_bounds';

export interface SparkplugEvents {
  /** Sends a command to a node (NCMD rebirth); nothing when not connected. */
  publish(topic: string, payload: Buffer): void;
  warn(category: string, said: AgentMessage): void;
  clear(category: string): void;
  /** false (a preview): nothing is sent, so a gap or a node not seen born asks for no rebirth. */
  readonly askRebirth?: boolean;
}

/** The Sparkplug topics that carry the births and seq of the nodes a data filter matches. */
export function nodeFilter(filter: string): string {
  const levels = filter.split('/');
  if (levels.length < 2 || levels[1] === '#') return 'spBv1.0/#';
  // `#` stands last in a filter: a group's every node (`spBv1.0/Line3/DDATA/#`) or all of a group.
  if (levels.length < 4 || levels[2] === '#' || levels[3] === '#') return `spBv1.0/${levels[1]}/#`;
  return `spBv1.0/${levels[1]}/+/${levels[3]}/#`;
}

/** A bound reached is said at most once a minute: a flood of invented births must not flood the log. */
const BOUND_WARNING_MS = 60_000;

export class SparkplugReader {
  readonly extraFilters: readonly string[];
  private readonly book = new NameBook();
  private boundWarnedAt = Number.NEGATIVE_INFINITY;
  private boundsSkipped = 0;

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
      return { records: [], badTimestamps: 0, unreadable: say('mqtt.message_not_sparkplug', 'not a Sparkplug B payload ({error})', { error: (cause as Error).message }) };
    }
    const nodeKey = `${levels[1]}/${levels[3]}`;
    if (type === 'NBIRTH') {
      const node = this.book.node(nodeKey);
      node.seq = decoded.seq;
      node.rebirthAsked = false;
      const bdSeq = decoded.metrics.find((m) => m.name === 'bdSeq');
      node.bdSeq = bdSeq?.longValue ?? (bdSeq?.intValue === undefined ? undefined : BigInt(bdSeq.intValue));
      this.book.clearNode(nodeKey, node);
      this.bounded(topic, this.book.learn(nodeKey, node, decoded));
      this.events.clear(SEQ_GAP);
      return { records: [], badTimestamps: 0 };
    }
    if (type === 'NDEATH') {
      this.death(nodeKey, decoded);
      return { records: [], badTimestamps: 0 };
    }
    const node = this.book.node(nodeKey);
    this.checkSeq(topic, levels, node, decoded.seq);
    const deviceKey = levels[4];
    if (type === 'DDEATH' && deviceKey !== undefined) this.book.forgetDevice(nodeKey, deviceKey);
    if (type === 'DBIRTH' && deviceKey !== undefined) {
      const device = this.book.birthDevice(nodeKey, node, deviceKey);
      if (device) this.bounded(topic, this.book.learn(nodeKey, device, decoded));
      else this.bounded(topic, decoded.metrics.length, say('sparkplug.devices_bound', 'node {node} already has {devices} devices, or {remembered} devices are remembered in all', { node: nodeKey, devices: MAX_DEVICES_PER_NODE, remembered: MAX_REMEMBERED_DEVICES }));
    }
    if ((type !== 'DDATA' && type !== 'NDATA') || !topicMatches(this.config.topic, topic)) return { records: [], badTimestamps: 0 };
    // A device whose birth is not remembered is read by the names its data carries; when it sends
    // aliases only, its node is asked for a rebirth (once until its NBIRTH).
    const known = deviceKey === undefined ? node : this.book.device(nodeKey, deviceKey);
    const reading = this.records(topic, payload, decoded, known ?? emptyNames(), receivedMicros);
    if (!known && decoded.metrics.some((m) => m.name === undefined && m.alias !== undefined)) this.askRebirth(levels, node, say('sparkplug.birth_not_remembered', 'Sparkplug: the birth of {topic} is not remembered', { topic: topic.slice(0, 300) }));
    return reading;
  }

  /** What is remembered of the nodes and devices (for tests). */
  get remembered() {
    return this.book.totals;
  }

  /** An NDEATH forgets the node's births, unless its bdSeq is not the NBIRTH's (the will of an older connection). */
  private death(nodeKey: string, decoded: DecodedPayload): void {
    const node = this.book.peek(nodeKey);
    if (!node) return;
    const metric = decoded.metrics.find((m) => m.name === 'bdSeq');
    const bdSeq = metric?.longValue ?? (metric?.intValue === undefined ? undefined : BigInt(metric.intValue));
    if (bdSeq !== undefined && node.bdSeq !== undefined && bdSeq !== node.bdSeq) return;
    node.seq = undefined;
    this.book.clearNode(nodeKey, node);
  }

  /** Metrics of a birth not remembered: a warning at most once a minute, with how many since the last one. */
  private bounded(topic: string, dropped: number, reason?: AgentMessage): void {
    if (dropped === 0) return;
    this.boundsSkipped += dropped;
    const now = Date.now();
    if (now - this.boundWarnedAt < BOUND_WARNING_MS) return;
    this.boundWarnedAt = now;
    const why = reason ?? say('sparkplug.bounds_reason', 'names over {bytes} bytes, or more than {entries} aliases and names remembered', { bytes: MAX_NAME_BYTES, entries: MAX_REMEMBERED_ENTRIES });
    this.events.warn(
      BOUNDS,
      say('sparkplug.births_not_remembered', 'Sparkplug: {count} metric(s) of births (the last on {topic}) were not remembered ({why}); their aliases cannot be read. Said at most once a minute.', {
        count: this.boundsSkipped,
        topic: topic.slice(0, 300),
        why,
      }),
    );
    this.boundsSkipped = 0;
  }

  private decode(payload: Buffer): DecodedPayload {
    if (payload.length > MAX_MESSAGE_BYTES) throw new SparkplugFormatError(`${payload.length} bytes is more than ${MAX_MESSAGE_BYTES}`);
    const decoded = decodePayload(payload, MAX_METRICS, MAX_NAME_BYTES);
    if (decoded.uuid !== COMPRESSED || !decoded.body) return decoded;
    const algorithm = decoded.metrics.find((m) => m.name === 'algorithm')?.stringValue?.toUpperCase() ?? 'DEFLATE';
    const inflate = algorithm === 'GZIP' ? gunzipSync : inflateSync;
    return decodePayload(inflate(decoded.body, { maxOutputLength: MAX_INFLATED_BYTES }), MAX_METRICS, MAX_NAME_BYTES);
  }

  /** seq must follow the node's last one; a gap (or no birth seen) asks for a rebirth once. */
  private checkSeq(topic: string, levels: string[], node: NodeState, seq: number | undefined): void {
    let problem: AgentMessage | undefined;
    const nodeName = `${levels[1]}/${levels[3]}`;
    if (node.seq === undefined) problem = say('sparkplug.no_birth', 'Sparkplug: no NBIRTH of node {node} seen before {topic}', { node: nodeName, topic });
    else if (seq !== undefined && seq !== (node.seq + 1) % 256)
      problem = say('sparkplug.seq_gap', 'Sparkplug: seq gap from node {node} on {topic}: expected {expected}, got {seq} (messages lost or out of order)', { node: nodeName, topic, expected: (node.seq + 1) % 256, seq });
    if (seq !== undefined) node.seq = seq;
    if (problem !== undefined) this.askRebirth(levels, node, problem);
  }

  /** Warns and sends NCMD Rebirth to the node, once until its NBIRTH comes. */
  private askRebirth(levels: string[], node: NodeState, problem: AgentMessage): void {
    const nodeTopic = `spBv1.0/${levels[1]}/NCMD/${levels[3]}`;
    if (node.rebirthAsked) return;
    node.rebirthAsked = true;
    if (this.events.askRebirth === false) {
      this.events.warn(SEQ_GAP, say('sparkplug.preview_no_rebirth', '{problem}: metric names come from the data itself, aliases cannot be read. The preview asks for no rebirth; the running receiver does (NCMD on {topic}).', { problem, topic: nodeTopic }));
      return;
    }
    this.events.warn(SEQ_GAP, say('sparkplug.rebirth_requested', '{problem}; a rebirth was requested (NCMD on {topic}).', { problem, topic: nodeTopic }));
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
    if (unnamed > 0) this.events.warn('sparkplug_alias_unknown', say('sparkplug.alias_unknown', 'Sparkplug: {count} metric(s) on {topic} had an alias no birth named; they were skipped.', { count: unnamed, topic }));
    else this.events.clear('sparkplug_alias_unknown');
    return out;
  }
}
