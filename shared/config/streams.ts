/**
 * Stream names and stream filters. A stream is `asset:stream_type`; a filter entry is `*`,
 * `asset:stream_type`, or either half replaced by `*`.
 */

export const streamId = (asset: string, streamType: string) => `${asset}:${streamType}`;

/** Splits a filter entry; `problem` explains a malformed entry. */
export function parseFilter(entry: string): { asset?: string; streamType?: string; problem?: string } {
  if (entry === '*') return { asset: '*', streamType: '*' };
  const parts = entry.split(':');
  if (parts.length !== 2 || parts[0] === '' || parts[1] === '')
    return { problem: `"${entry}" is not a stream filter. Use "asset:stream_type", "*:stream_type", "asset:*" or "*".` };
  return { asset: parts[0]!, streamType: parts[1]! };
}

/** True when the filter entry selects the stream `asset:stream_type`. */
export function matchesStream(entry: string, stream: string): boolean {
  const filter = parseFilter(entry);
  if (filter.problem) return false;
  const colon = stream.indexOf(':');
  const asset = stream.slice(0, colon);
  const streamType = stream.slice(colon + 1);
  return (filter.asset === '*' || filter.asset === asset) && (filter.streamType === '*' || filter.streamType === streamType);
}

/** True when any entry of the filter list selects the stream; a missing list selects everything. */
export function filterSelects(filter: readonly string[] | undefined, stream: string): boolean {
  return filter === undefined || filter.some((entry) => matchesStream(entry, stream));
}

/**
 * The streams a filter_stream list selects, looked up instead of tried one by one: 200 filters over
 * 20,000 streams took 2.6 s that way. Keeps the order of `streams`.
 */
export class StreamSelector<T extends { asset: string; stream_type: string }> {
  private readonly byAsset = new Map<string, number[]>();
  private readonly byType = new Map<string, number[]>();
  private readonly byId = new Map<string, number[]>();

  constructor(private readonly streams: readonly T[]) {
    streams.forEach((stream, index) => {
      for (const [map, key] of [
        [this.byAsset, stream.asset],
        [this.byType, stream.stream_type],
        [this.byId, streamId(stream.asset, stream.stream_type)],
      ] as const) {
        const list = map.get(key);
        if (list) list.push(index);
        else map.set(key, [index]);
      }
    });
  }

  /** The streams `filter` selects (all of them when it is missing), in their original order. */
  select(filter: readonly string[] | undefined): T[] {
    if (filter === undefined) return [...this.streams];
    const chosen = new Set<number>();
    for (const entry of filter) {
      const { asset, streamType, problem } = parseFilter(entry);
      if (problem) continue;
      if (asset === '*' && streamType === '*') return [...this.streams];
      const indexes = asset === '*' ? this.byType.get(streamType!) : streamType === '*' ? this.byAsset.get(asset!) : this.byId.get(streamId(asset!, streamType!));
      for (const index of indexes ?? []) chosen.add(index);
    }
    return [...chosen].sort((a, b) => a - b).map((index) => this.streams[index]!);
  }
}
