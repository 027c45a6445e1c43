import type { RestreamRequest, StreamRecord } from '../../../../shared/api/resources.js';

/** Identity of a stream row: the same stream name may exist under two receivers. */
export const streamKey = (record: Pick<StreamRecord, 'data_receiver' | 'stream'>) => `${record.data_receiver}\u0000${record.stream}`;

/** Groups the selected streams by receiver, the shape POST /v1/restream takes. */
export function restreamRequestFor(records: readonly StreamRecord[], selected: ReadonlySet<string>): RestreamRequest {
  const request: RestreamRequest = {};
  for (const record of records) {
    if (!selected.has(streamKey(record))) continue;
    (request[record.data_receiver] ??= []).push({ asset: record.asset, stream_type: record.stream_type });
  }
  return request;
}

/** Case-insensitive match on stream, receiver and marker texts. */
export function matchesFilter(record: StreamRecord, filter: string): boolean {
  const needle = filter.trim().toLowerCase();
  if (needle === '') return true;
  const haystack = [record.stream, record.data_receiver, ...record.markers.map((m) => `${m.component} ${m.category} ${m.message}`)];
  return haystack.some((text) => text.toLowerCase().includes(needle));
}

/** Markers newest first (timestamps sort as text in the spec form). */
export function newestMarkers(record: StreamRecord, count: number) {
  return [...record.markers].sort((a, b) => (a.timestamp < b.timestamp ? 1 : a.timestamp > b.timestamp ? -1 : 0)).slice(0, count);
}
