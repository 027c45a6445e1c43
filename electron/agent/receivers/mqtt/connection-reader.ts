/**
 * The streams of one broker connection: a persistent session (clean start off), QoS 1
 * subscriptions, and messages acknowledged only once their records are committed. What arrives in
 * one turn of the event loop is committed together (one transaction per stream), then acknowledged.
 * A message whose records cannot be stored yet (outbox full) stays unacknowledged: the broker keeps
 * it and, its in-flight window full, stops sending until there is room.
 */
import type { IPublishPacket, ISubscriptionGrant, MqttClient } from 'mqtt';
import { topicMatches } from '../../../../shared/config/mqtt-topics.js';
import { streamId } from '../../../../shared/config/streams.js';
import type { AgentRecord } from '../../../../shared/records/record.js';
import type { StreamKey } from '../../components/contract.js';
import { type BrokerSettings, BrokerLink, ConnectionMarkers, DEFERRED_ACK, brokerProblem, sendPuback, who } from '../../mqtt/index.js';
import { say } from '../../../../shared/config/message.js';
import { BufferFullError } from '../../components/contract.js';
import type { ComponentContext } from '../../components/contract.js';
import type { StreamReader } from './stream-reader.js';
import { SubscriptionMemory } from './subscription-memory.js';
import { DisposableStore, DrainLoop, type DrainOutcome, breathe } from '../../lifecycle/index.js';
import { RepeatedWarning } from '../../logging/repeated-warning.js';

const RETRY_STORE_MS = 1000;

interface Pending {
  client: MqttClient;
  packet: IPublishPacket;
  /** Records still to commit, per stream (a message may match several streams). */
  waiting: Map<StreamReader, AgentRecord[]>;
}

export class ConnectionReader {
  readonly link: BrokerLink;
  private readonly markers: ConnectionMarkers;
  /** Unreadable messages: anyone who may publish on a topic can send thousands (decision 0061). */
  private readonly noise: RepeatedWarning;
  private readonly streams: StreamKey[];
  private pending: Pending[] = [];
  /** Commits what arrived: kicked per message, a round per turn of the event loop, backing off while storing fails. */
  private loop: DrainLoop | undefined;
  private subscribed = false;
  /** What one connection starts (the wait for the broker's SUBACK): disposed when it closes and on stop. */
  private connection: DisposableStore | undefined;

  constructor(
    private readonly receiver: string,
    settings: BrokerSettings & { timeout: number },
    clientId: string,
    private readonly readers: readonly StreamReader[],
    private readonly filters: Map<StreamReader, string>,
    private readonly memory: SubscriptionMemory,
    private readonly context: ComponentContext,
  ) {
    this.streams = readers.map((r) => r.stream);
    this.markers = new ConnectionMarkers(context.markers, this.streams, context.logger);
    this.noise = new RepeatedWarning((message) => context.logger.warn(message));
    this.link = new BrokerLink(settings, { clientId, clean: false, connectTimeoutMs: settings.timeout * 1000 }, context.logger, {
      connected: (client, sessionPresent) => this.onConnected(client, sessionPresent, settings.timeout),
      disconnected: () => this.onDisconnected(),
      problem: (problem) =>
        this.markers.raise(problem, (said) => say('mqtt.receiver_keeps_trying', '{problem} Tributary keeps trying; the broker keeps the messages of this session meanwhile (up to its limits).', { problem: said })),
    });
  }

  /** Connected and subscribed. */
  get ready(): boolean {
    return this.link.connected !== undefined && this.subscribed;
  }

  start(): void {
    this.loop = new DrainLoop({
      drain: () => this.drain(),
      idleMs: () => undefined,
      onError: (cause) => this.context.logger.error(`Storing messages failed: ${(cause as Error).message}`),
    });
    this.link.start();
  }

  async stop(): Promise<void> {
    // No round after stop: what was not stored stays unacknowledged, and the broker sends it again.
    const draining = this.loop?.dispose();
    await this.link.stop();
    this.connection?.dispose();
    this.connection = undefined;
    await draining;
    this.noise.close();
    // Not acknowledged: the broker sends these again on the next connection.
    this.pending = [];
  }

  private onConnected(client: MqttClient, sessionPresent: boolean, timeoutSeconds: number): void {
    this.markers.clear();
    this.connection?.dispose();
    const connection = new DisposableStore();
    this.connection = connection;
    this.context.logger.info(`Connected to ${this.link.target.url} as ${this.link.target.clientId} (${sessionPresent ? 'session resumed' : 'new session'}).`);
    client.handleMessage = (packet, callback) => {
      try {
        this.accept(client, packet);
      } catch (cause) {
        // Not acknowledged: the receiver restarts alone and the broker sends the message again.
        this.context.fail(cause, say('component.during_message', 'handling a message on {topic}', { topic: packet.topic }));
      }
      callback(DEFERRED_ACK);
    };
    // A Sparkplug reader's filters cover its stream's topic: subscribed once, no message comes twice.
    const wanted = [...new Set(this.readers.flatMap((r) => r.extraFilters ?? [this.filters.get(r)!]))];
    const { subscribe, unsubscribe } = this.memory.changes(this.link.target, wanted, sessionPresent);
    if (unsubscribe.length > 0)
      client.unsubscribe(unsubscribe, (error) => {
        if (error) return;
        this.memory.forget(this.link.target, unsubscribe);
        this.context.logger.info(`Unsubscribed from ${unsubscribe.join(', ')} (no stream reads them any more).`);
      });
    if (subscribe.length === 0) {
      this.subscribed = true;
      return;
    }
    const timer = connection.setTimeout(
      () => this.link.breakConnection(brokerProblem('broker_slow', say('mqtt.subscriptions_unconfirmed', 'The broker at {url} did not confirm the subscriptions within {seconds} s.', { url: this.link.target.url, seconds: timeoutSeconds }))),
      timeoutSeconds * 1000,
    );
    // Retain handling 1 (MQTT 5): retained messages only for a new subscription, not again on
    // every reconnect of the persistent session.
    client.subscribe(Object.fromEntries(subscribe.map((topic) => [topic, { qos: 1 as const, rh: 1 }])), (error, granted) => {
      connection.delete(timer);
      if (this.link.connected !== client) return;
      this.onSubscribed(subscribe, error, granted ?? []);
    });
  }

  private onSubscribed(filters: string[], error: Error | null | undefined, granted: ISubscriptionGrant[]): void {
    const refused = new Set(granted.filter((g) => g.qos >= 128).map((g) => g.topic));
    if (error && refused.size === 0) for (const filter of filters) refused.add(filter);
    this.memory.remember(this.link.target, filters.filter((f) => !refused.has(f)));
    this.subscribed = true;
    for (const reader of this.readers) {
      // A Sparkplug reader subscribes to its node filters, not to its stream's topic.
      const filter = (reader.extraFilters ?? [this.filters.get(reader)!]).find((f) => refused.has(f));
      if (filter === undefined) continue;
      const problem = brokerProblem(
        'not_authorized',
        say('mqtt.subscription_refused', 'The broker at {url} refused the subscription to {filter} for {who} (not authorized). Ask its administrator to allow reading it.', { url: this.link.target.url, filter, who: who(this.link.target.username) }),
      );
      this.context.markers.raise([reader.stream], 'error', problem.category, problem.said);
      this.context.logger.warn(problem.message);
    }
    if (refused.size === 0) this.context.logger.info(`Subscribed to ${filters.join(', ')} (QoS 1).`);
  }

  private onDisconnected(): void {
    this.subscribed = false;
    this.connection?.dispose();
    this.connection = undefined;
    // Their acknowledgements can no longer be sent on this connection: the broker sends them again.
    this.pending = this.pending.filter((p) => p.client === this.link.connected);
  }

  private accept(client: MqttClient, packet: IPublishPacket): void {
    if (this.link.connected !== client) return;
    const topic = packet.topic;
    const payload = Buffer.isBuffer(packet.payload) ? packet.payload : Buffer.from(packet.payload);
    const waiting = new Map<StreamReader, AgentRecord[]>();
    // An empty message clears a retained one: nothing to record.
    if (payload.length > 0) {
      const received = this.context.clock.nowMicros();
      for (const reader of this.readers) {
        if (!(reader.accepts ? reader.accepts(topic) : topicMatches(this.filters.get(reader)!, topic))) continue;
        const reading = this.read(reader, topic, payload, received);
        this.noteReading(reader, topic, payload, reading);
        if (reading.records.length > 0) waiting.set(reader, reading.records);
      }
    }
    this.pending.push({ client, packet, waiting });
    this.loop?.kick();
  }

  /**
   * A message that makes reading throw is skipped like one that is not JSON: acknowledged with a
   * marker naming its topic, never a crash that the broker's redelivery would repeat forever.
   */
  private read(reader: StreamReader, topic: string, payload: Buffer, received: bigint): ReturnType<StreamReader['read']> {
    try {
      return reader.read(topic, payload, received);
    } catch (cause) {
      this.context.logger.error(`Reading a message on ${topic} failed`, cause);
      return { records: [], badTimestamps: 0, unreadable: say('mqtt.message_reading_failed', 'reading it failed ({error})', { error: (cause as Error)?.message ?? String(cause) }) };
    }
  }

  private noteReading(reader: StreamReader, topic: string, payload: Buffer, reading: ReturnType<StreamReader['read']>): void {
    const id = streamId(reader.stream.asset, reader.stream.stream_type);
    if (reading.unreadable) {
      const start = JSON.stringify(payload.subarray(0, 120).toString('utf8'));
      const said = say('mqtt.message_unreadable', 'A message on {topic} could not be read for {stream}: {why}. It was skipped. Its start: {start}', { topic, stream: id, why: reading.unreadable, start });
      this.context.markers.raise([reader.stream], 'warning', 'message_unreadable', said);
      // One line a minute per stream with how many more; the marker shows the newest.
      this.noise.warn(`unreadable ${streamId(reader.stream.asset, reader.stream.stream_type)}`, said.text);
    }
    // A skipped message stays marked (its time says when) after good ones: cleared by a restart of the receiver.
    if (reading.badTimestamps > 0) {
      const said = say('mqtt.timestamps_unreadable', '{count} record(s) of a message on {topic} had no readable time stamp (e.g. {example}): they got the time of receipt.', {
        count: reading.badTimestamps,
        topic,
        example: String(reading.badTimestampExample),
      });
      this.context.markers.raise([reader.stream], 'warning', 'timestamp_unreadable', said);
    } else if (reading.records.length > 0) this.context.markers.clear('timestamp_unreadable', [reader.stream]);
  }

  /** One round: after the messages of this turn of the event loop have arrived, so that they are stored together. */
  private async drain(): Promise<DrainOutcome> {
    const loop = this.loop;
    await breathe();
    if (loop?.disposed) return undefined;
    this.flush();
    return this.pending.length > 0 ? { backoffMs: RETRY_STORE_MS } : undefined;
  }

  /** Commits what arrived, per stream; acknowledges every message whose records are all stored. */
  private flush(): void {
    for (const reader of this.readers) {
      const items = this.pending.filter((p) => p.waiting.has(reader));
      if (items.length === 0) continue;
      try {
        this.context.pipeline.submit(this.receiver, reader.stream, items.flatMap((p) => p.waiting.get(reader)!), {});
        for (const item of items) item.waiting.delete(reader);
        this.context.markers.clear('store_failed', [reader.stream]);
      } catch (cause) {
        if (cause instanceof BufferFullError) continue;
        const said = say('mqtt.store_failed', 'Records of {stream} could not be stored: {error}. The messages stay unacknowledged and are tried again.', { stream: streamId(reader.stream.asset, reader.stream.stream_type), error: (cause as Error).message });
        this.context.markers.raise([reader.stream], 'error', 'store_failed', said);
        this.context.logger.error(said.text);
      }
    }
    const client = this.link.connected;
    const done = this.pending.filter((p) => p.waiting.size === 0);
    this.pending = this.pending.filter((p) => p.waiting.size > 0);
    for (const item of done) if (item.client === client) sendPuback(client, item.packet);
  }
}
