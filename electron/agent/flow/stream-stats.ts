import type { StreamDelivery, StreamStats } from '../../../shared/api/resources.js';
import type { StreamKey } from '../components/contract.js';
import type { AgentStore, OutboxStream, StreamTotals } from '../store/agent-store.js';
import type { DataFlow } from './data-flow.js';

/** A configured stream as GET /v1/streams judges it. */
export interface StreamToJudge extends StreamKey {
  receiver: string;
  /** expected_every_seconds of its configuration. */
  expectedEverySeconds?: number;
  /** The configured transmits whose filter_stream selects it. */
  transmits: readonly string[];
}

/** What the store keeps of every stream's flow, read once per request: a row per stream and transmit. */
export interface StoredFlow {
  totals: Map<string, StreamTotals>;
  delivery: Map<string, OutboxStream[]>;
}

const receiverKey = (receiver: string, s: StreamKey) => `${receiver}\0${s.asset}\0${s.stream_type}`;
// The outbox knows streams by asset and stream type only.
const streamKey = (s: StreamKey) => `${s.asset}\0${s.stream_type}`;
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** Two small queries, whatever the size of the outbox (its counts are kept by triggers). */
export function readStoredFlow(store: AgentStore): StoredFlow {
  const totals = new Map(store.streamTotals().map((row) => [receiverKey(row.receiver, row), row]));
  const delivery = new Map<string, OutboxStream[]>();
  for (const row of store.outboxStreams()) {
    const key = streamKey(row);
    const list = delivery.get(key);
    if (list) list.push(row);
    else delivery.set(key, [row]);
  }
  return { totals, delivery };
}

/**
 * `stats` of one stream of GET /v1/streams: the counters and the newest record from the store (they
 * survive a restart), the rate and the file being read from memory, delivery per transmit, and the
 * interval it is judged by. Without the store (it cannot be opened), what memory knows.
 */
export function streamStats(flow: DataFlow, stored: StoredFlow | undefined, stream: StreamToJudge, configuredTransmits: ReadonlySet<string>): StreamStats {
  const live = flow.streams.stats(stream.receiver, stream);
  const kept = stored?.totals.get(receiverKey(stream.receiver, stream));
  const expectation = flow.expected(stream.receiver, stream, stream.expectedEverySeconds);
  const transmits: Record<string, StreamDelivery> = {};
  for (const name of stream.transmits) transmits[name] = { sent: 0, waiting: 0, oldest_waiting_at: null };
  for (const row of stored?.delivery.get(streamKey(stream)) ?? []) {
    // Rows of transmits no longer configured are left out; a configured transmit that no longer
    // selects the stream still shows what of it waits or was sent.
    if (!configuredTransmits.has(row.transmit)) continue;
    transmits[row.transmit] = { sent: row.sent, waiting: Math.max(0, row.waiting), oldest_waiting_at: row.waiting > 0 ? iso(row.oldestAt) : null };
  }
  return {
    ...live,
    ...(kept && kept.recordsRead >= live.records_read
      ? { records_read: kept.recordsRead, last_record_at: iso(kept.lastRecordAt), last_record_timestamp: kept.lastRecordTimestamp ?? live.last_record_timestamp }
      : {}),
    transmits,
    expected_every_seconds: expectation?.seconds ?? null,
    expected_from: expectation?.from ?? null,
  };
}
