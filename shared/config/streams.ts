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
