import type { MqttClient } from 'mqtt';
import type { z } from 'zod';
import type { MqttTransmitSchema } from '../../../../shared/config/transmits/mqtt/schema.js';
import { type BrokerProblem, BrokerLink, ConnectionMarkers, brokerProblem, defaultClientId } from '../../mqtt/index.js';
import { say } from '../../../../shared/config/message.js';
import { expandTopic } from '../../../../shared/config/mqtt-topics.js';
import type { AgentComponent, ComponentContext, OutboxBatch } from '../../components/contract.js';
import { MQTT_OUTBOX, arrayMessages, isArrayPayload, messageText, payloadLines } from './mqtt-outbox.js';
import { SparkplugEdge } from './sparkplug-edge.js';
import { isSparkplugPayload, readSparkplugBatch } from './sparkplug-outbox.js';
import { DisposableStore, DrainLoop } from '../../lifecycle/index.js';

export type MqttTransmitConfig = z.infer<typeof MqttTransmitSchema>;
type Config = MqttTransmitConfig;

interface OutgoingMessage {
  topic: string;
  payload: Buffer;
  records: number;
  /** Sparkplug: topic and payload are made when publishing (the seq, a DBIRTH before it). */
  make?: () => { topic: string; payload: Buffer };
}

/** A queued batch and the messages it is sent as. */
interface OutgoingBatch {
  batch: OutboxBatch;
  messages: OutgoingMessage[];
}

const OPEN = Buffer.from('[');
const COMMA = Buffer.from(',');
const CLOSE = Buffer.from(']');

const BATCHES_PER_ROUND = 50;
const RETRY_REFUSED_MS = 5000;

/** A publish the broker answered with an error reason code (MQTT 5), e.g. 135 not authorized. */
class RefusedError extends Error {
  constructor(
    readonly topic: string,
    readonly reason: string,
  ) {
    super(reason);
  }
}

/**
 * Publishes records to a broker (docs/mqtt.md) from the durable outbox. A batch leaves the outbox
 * only when the broker confirmed every one of its messages (PUBACK, QoS 1; with QoS 0 once written).
 * While the broker is down, refuses or does not confirm in time, the records stay queued, the
 * streams carry a marker and the status says why; BrokerLink reconnects with back-off and sending
 * resumes. Messages confirmed before a connection broke are not sent again; the rest are, with the
 * same record_id (after a crash: every unconfirmed batch).
 */
export class MqttTransmit implements AgentComponent {
  readonly kind = 'Transmit' as const;
  readonly name: string;
  private readonly link: BrokerLink;
  private readonly markers: ConnectionMarkers;
  private loop: DrainLoop | undefined;
  private lifetime: DisposableStore | undefined;
  /** Messages of queued batches the broker already confirmed (by batch id, message index). */
  private readonly confirmed = new Map<number, Set<number>>();
  private refusedUntil = 0;
  /** Ends the round in flight when its connection closes (its PUBACKs can no longer come). */
  private abortRound: (() => void) | undefined;
  /** payload_format "sparkplug_b": the edge node (births, seq, NCMD, primary host). */
  readonly edge: SparkplugEdge | undefined;

  constructor(
    private readonly config: Config,
    private readonly context: ComponentContext,
  ) {
    this.name = config.transmit_name;
    this.markers = new ConnectionMarkers(context.markers, context.streams, context.logger);
    const clientId = config.client_id ?? defaultClientId(this.name);
    const edge = config.payload_format === 'sparkplug_b' ? this.sparkplugEdge() : undefined;
    this.edge = edge;
    const session = { clientId, clean: true, connectTimeoutMs: Math.min(config.timeout, 30) * 1000, will: edge && (() => edge.nextWill()) };
    this.link = new BrokerLink(config, session, context.logger, {
      connected: (client) => {
        this.context.logger.info(`Connected to ${this.link.target.url} as ${clientId}.`);
        if (this.refusedUntil === 0) this.markers.clear();
        edge?.connected(client);
        this.kick();
      },
      disconnected: () => {
        edge?.disconnected();
        this.abortRound?.();
      },
      problem: (problem) => {
        // Some brokers (Mosquitto 2.0) drop the connection after refusing a publish: the refusal
        // is what the engineer must fix, so its marker stays.
        if (Date.now() < this.refusedUntil && problem.category === 'connection_lost') return;
        this.report(problem);
      },
    });
  }

  private sparkplugEdge(): SparkplugEdge {
    return new SparkplugEdge(this.config, this.context.dataDirectory, this.context.logger, {
      ready: () => this.kick(),
      changed: () => this.context.stats.detail(this.name, 'sparkplug', this.edge?.snapshot()),
      waiting: (message) => {
        if (message === undefined) this.context.markers.clear('primary_host_offline', this.context.streams);
        else this.context.markers.raise(this.context.streams, 'warning', 'primary_host_offline', message);
      },
    });
  }

  /** Running while this start's lifetime is not disposed. */
  private get running(): boolean {
    return this.lifetime !== undefined && !this.lifetime.disposed;
  }

  async start(): Promise<void> {
    const lifetime = new DisposableStore();
    this.lifetime = lifetime;
    if (this.edge) this.context.stats.detail(this.name, 'sparkplug', this.edge.snapshot());
    this.loop = new DrainLoop({
      drain: () => this.drain(),
      // A broker that refused a publish is not asked again before its refusal pause ends.
      idleMs: () => Math.max(this.config.poll_interval * 1000, this.refusedUntil - Date.now()),
      onError: (cause) => this.context.logger.error(`Publishing to ${this.link.target.url} failed: ${(cause as Error).message}`),
    });
    lifetime.add(
      this.context.pipeline.onQueued((transmit) => {
        if (transmit === this.name) this.kick();
      }),
    );
    this.link.start();
  }

  async stop(): Promise<void> {
    this.lifetime?.dispose();
    const draining = this.loop?.dispose();
    this.edge?.death();
    await this.link.stop(); // ends a round waiting for acknowledgements (disconnected → abortRound)
    await draining;
  }

  status() {
    if (!this.running) return 'stopped' as const;
    return this.link.connected ? ('running' as const) : ('unknown' as const);
  }

  private report(problem: BrokerProblem): void {
    // No count here: Status shows the live backlog beside this reason (one backlog number).
    const said = this.markers.raise(problem, (inner) => say('mqtt.transmit_keeps_records', '{problem} The records are kept and sent when the broker takes them again.', { problem: inner }));
    this.context.stats.failure(this.name, said);
  }

  private kick(): void {
    if (this.running) this.loop?.kick();
  }

  private async drain(): Promise<void> {
    while (this.running && Date.now() >= this.refusedUntil) {
      const client = this.link.connected;
      if (!client || (this.edge && !this.edge.ready)) return;
      const batches = this.context.store.peek(this.name, BATCHES_PER_ROUND);
      if (batches.length === 0) return;
      const chosen = this.chooseRound(batches);
      try {
        const { records, bytes } = await this.publishRound(client, chosen);
        await this.context.store.ackWhenFree(this.name, chosen.map((b) => b.batch.id));
        for (const { batch } of chosen) this.confirmed.delete(batch.id);
        this.context.stats.success(this.name, records, bytes);
        if (this.refusedUntil !== 0 || this.markers.problem !== '') this.context.logger.info(`The broker at ${this.link.target.url} takes messages again.`);
        this.refusedUntil = 0;
        this.markers.clear();
      } catch (cause) {
        if (cause instanceof RefusedError) {
          this.refusedUntil = Date.now() + RETRY_REFUSED_MS;
          const { url, username } = this.link.target;
          const [topic, reason] = [cause.topic, cause.reason];
          this.report(
            brokerProblem(
              'not_authorized',
              username
                ? say('mqtt.publish_refused_user', 'The broker at {url} refused messages on {topic} ({reason}): allow user "{user}" to publish there, or change topic.', { url, topic, reason, user: username })
                : say('mqtt.publish_refused', 'The broker at {url} refused messages on {topic} ({reason}): allow this client to publish there, or change topic.', { url, topic, reason }),
            ),
          );
        }
        // Otherwise the connection broke or timed out: the link reports it and reconnects.
        return;
      }
    }
  }

  /**
   * Whole batches with at most max_request_records messages waiting for PUBACK at once (at least
   * one batch): a stored array is one message, a batch of record lines one message per record.
   */
  private chooseRound(batches: OutboxBatch[]): OutgoingBatch[] {
    const chosen: OutgoingBatch[] = [];
    let count = 0;
    for (const batch of batches) {
      const messages = this.messagesOf(batch);
      if (chosen.length > 0 && count + messages.length > this.config.max_request_records) break;
      chosen.push({ batch, messages });
      count += messages.length;
    }
    return chosen;
  }

  /** Publishes every not yet confirmed message of the batches; resolves when all are confirmed. */
  private publishRound(client: MqttClient, batches: OutgoingBatch[]): Promise<{ records: number; bytes: number }> {
    const publishes: Promise<void>[] = [];
    let records = 0;
    let bytes = 0;
    for (const { batch, messages } of batches) {
      const done = this.confirmed.get(batch.id) ?? new Set<number>();
      this.confirmed.set(batch.id, done);
      messages.forEach((message, index) => {
        records += message.records;
        if (done.has(index)) return;
        const made = message.make ? { ...message, ...message.make() } : message;
        bytes += made.payload.length;
        publishes.push(this.publishOne(client, made).then(() => void done.add(index)));
      });
    }
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      this.abortRound = () => reject(new Error('connection closed'));
      timer = setTimeout(() => {
        const problem = brokerProblem('broker_slow', say('mqtt.publishes_unconfirmed', 'The broker at {url} did not confirm {count} message(s) within {seconds} s (timeout).', { url: this.link.target.url, count: publishes.length, seconds: this.config.timeout }));
        this.link.breakConnection(problem);
        reject(new Error(problem.message));
      }, this.config.timeout * 1000);
    });
    return Promise.race([Promise.all(publishes), timeout])
      .then(() => ({ records, bytes }))
      .finally(() => {
        clearTimeout(timer);
        this.abortRound = undefined;
      });
  }

  /**
   * The messages of a stored batch (mqtt-outbox.ts): its one array message, or its record lines,
   * each a message or (message_format changed to array since they were stored) grouped into arrays.
   */
  private messagesOf(batch: OutboxBatch): OutgoingMessage[] {
    const sparkplug = isSparkplugPayload(batch.payload);
    // Batches stored before payload_format changed are sent in the new form: their records again.
    if (sparkplug !== (this.edge !== undefined)) {
      const converted = this.convert(batch);
      // A batch without records stays as it was: nothing to send.
      return converted === batch ? [] : this.messagesOf(converted);
    }
    if (this.edge) {
      const edge = this.edge;
      const stored = readSparkplugBatch(batch.payload);
      return [{ topic: '', payload: Buffer.alloc(0), records: batch.records, make: () => edge.data(stored) }];
    }
    const topic = expandTopic(this.config.topic ?? '', batch.asset, batch.stream_type);
    const text = messageText(batch.payload);
    if (isArrayPayload(text)) return [{ topic, payload: text, records: batch.records }];
    const lines = payloadLines(text);
    if (this.config.message_format === 'record') return lines.map((payload) => ({ topic, payload, records: 1 }));
    const join = (parts: Buffer[]) => Buffer.concat(parts.flatMap((part, i) => (i === 0 ? [OPEN, part] : [COMMA, part])).concat(CLOSE));
    return arrayMessages(lines, (line) => line.length, join, this.config.max_request_records, this.config.max_request_size_bytes).map(({ text, records }) => ({ topic, payload: text, records }));
  }

  private convert(batch: OutboxBatch): OutboxBatch {
    const records = MQTT_OUTBOX.decode(batch.payload);
    const options = MQTT_OUTBOX.options(this.config);
    const payloads = MQTT_OUTBOX.encode(records, { ...options, maxRecords: Math.max(records.length, 1), maxBytes: Number.MAX_SAFE_INTEGER });
    return payloads[0] ? { ...batch, payload: payloads[0].payload } : batch;
  }

  private publishOne(client: MqttClient, message: OutgoingMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const json = this.config.mqtt_version === '5' && !this.edge;
      const properties = json ? { contentType: 'application/json', payloadFormatIndicator: true } : undefined;
      client.publish(message.topic, message.payload, { qos: this.config.qos, retain: this.config.retain, properties }, (error) => {
        if (!error) return resolve();
        const code = (error as Error & { code?: number }).code;
        if (typeof code === 'number') return reject(new RefusedError(message.topic, error.message.replace(/^Publish error: /, '').toLowerCase() + ` (reason code ${code})`));
        reject(error);
      });
    });
  }
}
