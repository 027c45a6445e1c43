import type { Marker, RestreamRequest, StreamRecord } from '../../../shared/api/resources.js';

/**
 * The streams of a saved configuration (read defensively: a document edited by hand may be
 * incomplete) with their current markers: a stream's receiver markers are its own receiver's only.
 */
export function configuredStreams(raw: unknown, markersOf: (asset: string, streamType: string) => Marker[]): StreamRecord[] {
  const doc = raw as { data_receiver?: unknown } | undefined;
  const out: StreamRecord[] = [];
  for (const receiver of Array.isArray(doc?.data_receiver) ? doc.data_receiver : []) {
    const r = receiver as { data_receiver_name?: unknown; streams?: unknown };
    if (typeof r.data_receiver_name !== 'string' || !Array.isArray(r.streams)) continue;
    for (const stream of r.streams as { asset?: unknown; stream_type?: unknown }[]) {
      if (typeof stream?.asset !== 'string' || typeof stream.stream_type !== 'string') continue;
      out.push({
        stream: `${stream.asset}:${stream.stream_type}`,
        asset: stream.asset,
        stream_type: stream.stream_type,
        data_receiver: r.data_receiver_name,
        markers: markersOf(stream.asset, stream.stream_type).filter((m) => m.component_type !== 'Receiver' || m.component === r.data_receiver_name),
      });
    }
  }
  return out;
}

/** What a restream request names that is not configured, in words (empty: all of it is). */
export function unconfigured(request: RestreamRequest, configured: readonly StreamRecord[]): string[] {
  const unknown: string[] = [];
  for (const [receiver, streams] of Object.entries(request)) {
    if (!configured.some((s) => s.data_receiver === receiver)) unknown.push(`receiver "${receiver}"`);
    else
      for (const s of streams)
        if (!configured.some((c) => c.data_receiver === receiver && c.asset === s.asset && c.stream_type === s.stream_type))
          unknown.push(`stream "${s.asset}:${s.stream_type}" of receiver "${receiver}"`);
  }
  return unknown;
}
