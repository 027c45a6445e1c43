import type { Marker, QualityFinding, RestreamRequest, StreamRecord, StreamStats } from '../../../shared/api/resources.js';
import { formatSpecTimestamp } from '../../../shared/api/envelope.js';
import { filterSelects, streamId } from '../../../shared/config/streams.js';
import { unsentMessage } from '../status/service-health.js';

export { unsentMessage };

/** A stream of the saved configuration with its receiver. */
export interface ConfiguredStream {
  receiver: string;
  asset: string;
  stream_type: string;
  /** expected_every_seconds of the stream, when set. */
  expectedEverySeconds?: number;
  /** The transmits whose filter_stream selects it. */
  transmits: string[];
}

/** Names of the configured transmits with their filter_stream, read defensively. */
export function configuredTransmits(raw: unknown): { name: string; filter?: string[] }[] {
  const list = (raw as { data_transmit?: unknown } | undefined)?.data_transmit;
  const out: { name: string; filter?: string[] }[] = [];
  for (const t of Array.isArray(list) ? (list as { transmit_name?: unknown; filter_stream?: unknown }[]) : []) {
    if (typeof t?.transmit_name !== 'string') continue;
    const filter = Array.isArray(t.filter_stream) ? t.filter_stream.filter((f): f is string => typeof f === 'string') : undefined;
    out.push({ name: t.transmit_name, filter });
  }
  return out;
}

/** Unknown receivers and streams a failed restream names; the rest are counted. */
const MAX_NAMED_UNKNOWN = 20;

/** The streams of a saved configuration, read defensively (a document edited by hand may be incomplete). */
export function configuredStreams(raw: unknown): ConfiguredStream[] {
  const doc = raw as { data_receiver?: unknown } | undefined;
  const transmits = configuredTransmits(raw);
  const out: ConfiguredStream[] = [];
  for (const receiver of Array.isArray(doc?.data_receiver) ? doc.data_receiver : []) {
    const r = receiver as { data_receiver_name?: unknown; streams?: unknown };
    if (typeof r.data_receiver_name !== 'string' || !Array.isArray(r.streams)) continue;
    for (const stream of r.streams as { asset?: unknown; stream_type?: unknown; expected_every_seconds?: unknown }[]) {
      if (typeof stream?.asset !== 'string' || typeof stream.stream_type !== 'string') continue;
      const id = streamId(stream.asset, stream.stream_type);
      const expected = stream.expected_every_seconds;
      out.push({
        receiver: r.data_receiver_name,
        asset: stream.asset,
        stream_type: stream.stream_type,
        ...(typeof expected === 'number' && expected > 0 ? { expectedEverySeconds: expected } : {}),
        transmits: transmits.filter((t) => filterSelects(t.filter, id)).map((t) => t.name),
      });
    }
  }
  return out;
}

/** The category of the warning on a stream no transmit takes (the pipeline raises it once records are read). */
export const NO_TRANSMIT = 'no_transmit';

const unsentCache = new WeakMap<object, Map<string, string[]>>();

/**
 * Per receiver, the streams no transmit's filter_stream selects (issue 56): their records are read,
 * marked read and never leave. Kept per saved document: status is asked every few seconds.
 */
export function unsentStreams(raw: unknown): Map<string, string[]> {
  const cached = raw && typeof raw === 'object' ? unsentCache.get(raw) : undefined;
  if (cached) return cached;
  const out = new Map<string, string[]>();
  for (const stream of configuredStreams(raw)) {
    if (stream.transmits.length > 0) continue;
    const list = out.get(stream.receiver);
    if (list) list.push(streamId(stream.asset, stream.stream_type));
    else out.set(stream.receiver, [streamId(stream.asset, stream.stream_type)]);
  }
  if (raw && typeof raw === 'object') unsentCache.set(raw, out);
  return out;
}

/**
 * The warning of a stream no transmit takes while its receiver runs, for a stream the pipeline has
 * not yet raised it on (no record read yet): Streams says it from the start, as Status does.
 */
export function unsentMarker(services: Record<string, { status: string }>, nowMicros: bigint) {
  const timestamp = formatSpecTimestamp(nowMicros);
  return (stream: ConfiguredStream, markers: readonly Marker[]): Marker | undefined => {
    if (stream.transmits.length > 0 || services[`receiver:${stream.receiver}`]?.status !== 'running' || markers.some((m) => m.category === NO_TRANSMIT)) return undefined;
    const { asset, stream_type } = stream;
    const { text: message, code, params } = unsentMessage(streamId(asset, stream_type));
    return { component: 'pipeline', component_type: 'Transmit', asset, stream_type, category: NO_TRANSMIT, timestamp, level: 'warning', message, code, params };
  };
}

/** GET /v1/streams: each stream with its markers (of its receiver only, among receivers) and its flow. */
export function streamRecords(
  streams: readonly ConfiguredStream[],
  markersOf: (asset: string, streamType: string) => Marker[],
  statsOf: (stream: ConfiguredStream) => StreamStats,
  qualityOf: (stream: { asset: string; stream_type: string }) => QualityFinding[] = () => [],
  extraMarker: (stream: ConfiguredStream, markers: readonly Marker[]) => Marker | undefined = () => undefined,
): StreamRecord[] {
  return streams.map((configured) => {
    const { receiver, asset, stream_type } = configured;
    const markers = markersOf(asset, stream_type).filter((m) => m.component_type !== 'Receiver' || m.component === receiver);
    const extra = extraMarker(configured, markers);
    return {
    stream: `${asset}:${stream_type}`,
    asset,
    stream_type,
    data_receiver: receiver,
    markers: extra ? [...markers, extra] : markers,
    stats: statsOf(configured),
    quality: qualityOf({ asset, stream_type }),
    };
  });
}

/**
 * What a restream request names that is not configured, in words, or undefined when all of it is.
 * One pass over the configuration and one over the request: a request naming 200,000 unknown
 * streams is answered at once (it took 15 s when each was looked up in a list).
 */
export function unconfigured(request: RestreamRequest, configured: readonly ConfiguredStream[]): string | undefined {
  const receivers = new Set<string>();
  const streams = new Set<string>();
  for (const s of configured) {
    receivers.add(s.receiver);
    streams.add(`${s.receiver}\0${s.asset}\0${s.stream_type}`);
  }
  const named: string[] = [];
  let count = 0;
  const notConfigured = (what: string) => {
    count += 1;
    if (named.length < MAX_NAMED_UNKNOWN) named.push(what);
  };
  for (const [receiver, requested] of Object.entries(request)) {
    if (!receivers.has(receiver)) notConfigured(`receiver "${receiver}"`);
    else for (const s of requested) if (!streams.has(`${receiver}\0${s.asset}\0${s.stream_type}`)) notConfigured(`stream "${s.asset}:${s.stream_type}" of receiver "${receiver}"`);
  }
  if (count === 0) return undefined;
  return `${named.join(', ')}${count > named.length ? ` and ${count - named.length} more` : ''}`;
}
