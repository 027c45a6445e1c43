/**
 * Preview of an mqtt receiver (POST /v1/config/preview): a broker keeps no history, so the preview
 * listens. Per connection a short session of its own (clean, a client id of its own, QoS 0: the
 * running receiver's persistent session and its queued messages are not touched), each stream's
 * topic subscribed (retained messages come at once), then messages read by the stream's own reader
 * (JSON, value, Sparkplug B) until every stream has `rows` records or LISTEN_MS have passed.
 * Sends nothing: a Sparkplug node is not asked for a rebirth (docs/decisions/0046-mqtt-preview-and-sparkplug-console.md).
 */
import { say } from '../../../../shared/config/message.js';
import { previewProblem } from '../../../../shared/api/preview.js';
import crypto from 'node:crypto';
import type { MqttClient } from 'mqtt';
import { connectAsync } from 'mqtt';
import type { PreviewProblem } from '../../../../shared/api/preview.js';
import { topicMatches } from '../../../../shared/config/mqtt-topics.js';
import type { AgentRecord } from '../../../../shared/records/record.js';
import type { Logger } from '../../logging/logger.js';
import { brokerUrl, defaultClientId } from '../../mqtt/index.js';
import { brokerTarget, clientOptions } from '../../mqtt/broker-options.js';
import { explainBrokerError } from '../../mqtt/broker-problems.js';
import type { RawStreamPreview } from '../../components/raw-preview.js';
import { MessageReader } from './message-records.js';
import type { MqttReceiverConfig } from './mqtt-receiver.js';
import { SparkplugReader } from './sparkplug-reader.js';
import type { StreamReader } from './stream-reader.js';

/** How long a preview listens for messages: machines publish every few seconds, Sparkplug on change. */
export const LISTEN_MS = 5_000;
/** Problems kept per stream: a flood of unreadable messages must not make the answer huge. */
const MAX_PROBLEMS = 10;

interface Listening {
  reader: StreamReader;
  filters: string[];
  result: RawStreamPreview;
  /** Problems by category: a Sparkplug warning names its category; later ones replace earlier ones. */
  problems: Map<string, PreviewProblem>;
}

export async function previewMqtt(receiver: MqttReceiverConfig, options: { rows: number; logger: Logger; listenMs?: number }): Promise<RawStreamPreview[]> {
  const listenMs = options.listenMs ?? LISTEN_MS;
  const all: Listening[] = [];
  const connections = receiver.connections.map((connection, index) => {
    const streams = receiver.streams.filter((s) => (s.connection === undefined ? index === 0 : s.connection === connection.connection_name));
    const listening = streams.map((s): Listening => {
      const key = { asset: s.asset, stream_type: s.stream_type };
      const problems = new Map<string, PreviewProblem>();
      const reader: StreamReader =
        s.payload_format === 'sparkplug_b'
          ? new SparkplugReader(key, s, {
              askRebirth: false,
              publish: () => {},
              warn: (category, said) => note(problems, category, previewProblem('warning', said)),
              clear: (category) => problems.delete(category),
            })
          : new MessageReader(key, s);
      const result: RawStreamPreview = { key, source: `${brokerUrl(connection)}, topic ${s.topic}`, records: [], problems: [] };
      return { reader, filters: [...(reader.extraFilters ?? [s.topic])], result, problems };
    });
    all.push(...listening);
    return { connection, listening };
  });
  await Promise.all(
    connections
      .filter((c) => c.listening.length > 0)
      .map(async ({ connection, listening }) => {
        // A client id of its own: the receiver's would push the running receiver off the broker.
        const clientId = `${(connection.client_id ?? defaultClientId(receiver.data_receiver_name)).slice(0, 100)}-preview-${crypto.randomBytes(4).toString('hex')}`;
        let client: MqttClient | undefined;
        try {
          // allowRetries false: a socket closed before CONNACK rejects instead of leaving the preview waiting.
          client = await connectAsync(brokerUrl(connection), clientOptions(connection, { clientId, clean: true, connectTimeoutMs: connection.timeout * 1000 }), false);
        } catch (cause) {
          const problem = explainBrokerError(cause, brokerTarget(connection, clientId));
          for (const l of listening) l.problems.set(problem.category, previewProblem('error', problem.said));
          return;
        }
        // Errors after connecting (the broker drops the connection) are problems, never an uncaught 'error'.
        const target = brokerTarget(connection, clientId);
        client.on('error', (cause) => {
          const problem = explainBrokerError(cause, target);
          for (const l of listening) note(l.problems, problem.category, previewProblem('error', problem.said));
        });
        try {
          await listen(client, listening, options.rows, listenMs, options.logger);
        } finally {
          await client.endAsync(true).catch(() => {});
        }
      }),
  );
  return all.map(({ result, problems }) => {
    result.problems.push(...problems.values());
    if (result.records.length === 0 && ![...problems.values()].some((p) => p.level === 'error'))
      result.problems.push(
        previewProblem(
          'warning',
          say('mqtt.preview_nothing_arrived', 'Nothing arrived on this topic within {seconds} s of listening. A broker keeps no history (retained messages aside): records come as the machines publish; a Sparkplug node publishes when values change.', { seconds: listenMs / 1000 }),
        ),
      );
    return result;
  });
}

function listen(client: MqttClient, listening: Listening[], rows: number, listenMs: number, logger: Logger): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, listenMs);
    const done = () => {
      if (!listening.every((l) => l.result.records.length >= rows)) return;
      clearTimeout(timer);
      resolve();
    };
    client.on('message', (topic, payload) => {
      if (payload.length === 0) return;
      for (const l of listening) {
        if (l.result.records.length >= rows) continue;
        if (!(l.reader.accepts ? l.reader.accepts(topic) : topicMatches(l.filters[0]!, topic))) continue;
        take(l, topic, payload, rows, logger);
      }
      done();
    });
    const filters = [...new Set(listening.flatMap((l) => l.filters))];
    client.subscribe(Object.fromEntries(filters.map((f) => [f, { qos: 0 as const }])), (error, granted) => {
      const refused = new Set((granted ?? []).filter((g) => g.qos >= 128).map((g) => g.topic));
      if (error && refused.size === 0) for (const f of filters) refused.add(f);
      for (const l of listening) {
        const filter = l.filters.find((f) => refused.has(f));
        if (filter !== undefined) l.problems.set('not_authorized', { level: 'error', message: `The broker refused the subscription to ${filter} (not authorized). Ask its administrator to allow reading it.` });
      }
    });
  });
}

/** One message through a stream's reader; what cannot be read is a problem naming its topic, never a failure. */
function take(l: Listening, topic: string, payload: Buffer, rows: number, logger: Logger): void {
  let records: AgentRecord[];
  try {
    const reading = l.reader.read(topic, payload, BigInt(Date.now()) * 1000n);
    if (reading.unreadable)
      note(l.problems, `unreadable ${topic}`, previewProblem('warning', say('mqtt.preview_unreadable', 'A message on {topic} could not be read: {why}. The receiver skips such messages with a marker.', { topic, why: reading.unreadable })));
    if (reading.badTimestamps > 0)
      note(
        l.problems,
        'timestamp_unreadable',
        previewProblem('warning', say('mqtt.preview_timestamps', '{count} record(s) of a message on {topic} had no readable time stamp (e.g. {example}): they get the time of receipt.', { count: reading.badTimestamps, topic, example: String(reading.badTimestampExample) })),
      );
    records = reading.records;
  } catch (cause) {
    logger.warn(`Preview: reading a message on ${topic} failed: ${(cause as Error).message}`);
    note(l.problems, `unreadable ${topic}`, previewProblem('warning', say('mqtt.preview_read_failed', 'A message on {topic} could not be read ({error}).', { topic, error: (cause as Error).message })));
    return;
  }
  l.result.records.push(...records.slice(0, rows - l.result.records.length));
}

function note(problems: Map<string, PreviewProblem>, key: string, problem: PreviewProblem): void {
  if (problems.size < MAX_PROBLEMS || problems.has(key)) problems.set(key, problem);
}
