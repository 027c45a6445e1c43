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

/** Timestamp of the oldest stamped line: where "load older" continues from (`?until=`). */
export function firstTimestamp(lines: readonly string[]): string | undefined {
  for (const line of lines) {
    const match = STAMP.exec(line);
    if (match) return match[0];
  }
  return undefined;
}

/**
 * An older page (asked `until` the oldest shown stamp, which is inclusive: no line sharing that
 * stamp is lost) put before the lines shown: the page ends with the lines of that stamp the view
 * already has, and those are left out.
 */
export function prependLogLines(older: readonly string[], shown: readonly string[]): string[] {
  const oldest = firstTimestamp(shown);
  if (oldest === undefined) return [...older, ...shown];
  let known = 0;
  while (known < shown.length) {
    const stamp = STAMP.exec(shown[known]!)?.[0];
    if (stamp !== undefined && stamp !== oldest) break;
    known += 1;
  }
  return [...older.slice(0, Math.max(0, older.length - known)), ...shown];
}
