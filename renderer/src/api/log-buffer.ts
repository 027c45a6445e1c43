/** Most lines the console keeps per log; older lines drop off the top. */
export const LOG_BUFFER_LIMIT = 100_000;

const STAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(?:\.\d{1,6})?/;

/** Timestamp of the newest stamped line: what `?since=` continues from. */
export function lastTimestamp(lines: readonly string[]): string | undefined {
  for (let i = lines.length - 1; i >= 0; i -= 1) {
    const match = STAMP.exec(lines[i]!);
    if (match) return match[0];
  }
  return undefined;
}

export function appendLogLines(previous: readonly string[], fresh: readonly string[], limit = LOG_BUFFER_LIMIT): string[] {
  if (fresh.length === 0) return previous as string[];
  const next = previous.concat(fresh);
  return next.length > limit ? next.slice(next.length - limit) : next;
}
