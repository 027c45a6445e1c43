import path from 'node:path';
import type { z } from 'zod';
import type { MqttReceiverSchema } from '../../../../shared/config/receivers/mqtt/schema.js';
import { defaultClientId } from '../../mqtt/index.js';
import type { AgentComponent, ComponentContext } from '../../components/contract.js';
import { ConnectionReader } from './connection-reader.js';
import { MessageReader } from './message-records.js';
import { SparkplugReader } from './sparkplug-reader.js';
import type { StreamReader } from './stream-reader.js';
import { SubscriptionMemory } from './subscription-memory.js';
import { RepeatedWarning } from '../../logging/repeated-warning.js';
import { DisposableStore } from '../../lifecycle/index.js';

export type MqttReceiverConfig = z.infer<typeof MqttReceiverSchema>;

/**
 * Subscribes to topics of one or more brokers (docs/mqtt.md): one persistent session per
 * connection, QoS 1, each message's records committed before it is acknowledged. Messages
 * published while the agent was stopped are read when it starts, as far as the broker kept them.
 */
export class MqttReceiver implements AgentComponent {
  readonly kind = 'Receiver' as const;
  readonly name: string;
  private connections: ConnectionReader[] = [];
  /** The Sparkplug readers' warnings (aliases no birth named, bounds): once a minute per kind and stream (decision 0061). */
  /** One per start, holding what the connections share (the noise log); undefined once stopping. */
  private started: DisposableStore | undefined;

  constructor(
    private readonly config: MqttReceiverConfig,
    private readonly context: ComponentContext,
  ) {
    this.name = config.data_receiver_name;
  }

  async start(): Promise<void> {
    const started = new DisposableStore();
    this.started = started;
    const noise = new RepeatedWarning((message) => this.context.logger.warn(message));
    started.add(() => noise.close());
    this.connections = this.config.connections.flatMap((connection, index) => {
      const streams = this.config.streams.filter((s) => (s.connection === undefined ? index === 0 : s.connection === connection.connection_name));
      if (streams.length === 0) return [];
      // The connection is made after its readers; a Sparkplug reader sends its rebirth requests through it.
      const link: { reader?: ConnectionReader } = {};
      const readers: StreamReader[] = streams.map((s) => {
        const stream = { asset: s.asset, stream_type: s.stream_type };
        if (s.payload_format !== 'sparkplug_b') return new MessageReader(stream, s);
        return new SparkplugReader(stream, s, {
          publish: (topic, payload) => link.reader?.link.connected?.publish(topic, payload, { qos: 0 }),
          warn: (category, said) => {
            this.context.markers.raise([stream], 'warning', category, said);
            noise.warn(`${category} ${s.asset}:${s.stream_type}`, said.text);
          },
          clear: (category) => this.context.markers.clear(category, [stream]),
        });
      });
      const filters = new Map(readers.map((r, i) => [r, streams[i]!.topic]));
      const clientId = connection.client_id ?? defaultClientId(this.config.connections.length > 1 ? `${this.name}-${index + 1}` : this.name);
      const memory = new SubscriptionMemory(path.join(this.context.dataDirectory, `subscriptions-${index + 1}.json`));
      link.reader = new ConnectionReader(this.name, connection, clientId, readers, filters, memory, this.context);
      return [link.reader];
    });
    for (const connection of this.connections) connection.start();
  }

  async stop(): Promise<void> {
    const started = this.started;
    this.started = undefined;
    await Promise.all(this.connections.map((c) => c.stop()));
    started?.dispose();
  }

  /** running: every connection is up and subscribed; unknown: trying to reach a broker. */
  status() {
    if (!this.started) return 'stopped' as const;
    return this.connections.every((c) => c.ready) ? ('running' as const) : ('unknown' as const);
  }

  /** Nothing to forget: a broker keeps no history to read again (docs/mqtt.md, Restream). */
  async purge(): Promise<void> {}
}
