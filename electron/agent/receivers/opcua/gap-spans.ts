import { isoMicros } from '../../../../shared/records/record.js';

/**
 * A gap of one tag still to be read from history: the values strictly after `from` (its last
 * value committed before the gap) and strictly before `to` (its first live value after it), in µs.
 */
export interface Span {
  from: bigint;
  to: bigint;
}

/** Stored gaps per tag are merged beyond this many (a flapping connection reads one wider span). */
const MAX_SPANS = 16;

/** The stream state holding a tag's gaps: `[["<from ISO>","<to ISO>"], …]`, `[]` once read. */
export const gapKey = (tag: { exportname: string }) => `gap:${tag.exportname}`;

/** Epoch µs of an ISO time with up to six decimals, Z; undefined for anything else. */
export function isoToMicros(iso: unknown): bigint | undefined {
  const match = typeof iso === 'string' ? /^(.*T\d\d:\d\d:\d\d)(?:\.(\d{1,6}))?Z$/.exec(iso) : null;
  if (!match) return undefined;
  const ms = Date.parse(`${match[1]}Z`);
  if (Number.isNaN(ms)) return undefined;
  return BigInt(ms) * 1000n + BigInt((match[2] ?? '').padEnd(6, '0'));
}

/** Source time (µs) of the `t` in a stored last value (stream-records.ts fingerprint), if any. */
export function storedMicros(saved: string | undefined): bigint | undefined {
  if (saved === undefined) return undefined;
  try {
    return isoToMicros((JSON.parse(saved) as { t?: unknown } | null)?.t);
  } catch {
    return undefined;
  }
}

/** Stored gaps; anything unreadable is no gap (the tag is then read from its last value on). */
export function parseSpans(saved: string | undefined): Span[] {
  if (!saved) return [];
  try {
    const list = JSON.parse(saved) as unknown;
    if (!Array.isArray(list)) return [];
    const spans: Span[] = [];
    for (const item of list.slice(0, MAX_SPANS * 4)) {
      if (!Array.isArray(item)) continue;
      const from = isoToMicros(item[0]);
      const to = isoToMicros(item[1]);
      if (from !== undefined && to !== undefined && from < to) spans.push({ from, to });
    }
    return spans;
  } catch {
    return [];
  }
}

export function spansText(spans: readonly Span[]): string {
  let kept = [...spans].sort((a, b) => (a.from < b.from ? -1 : a.from > b.from ? 1 : 0));
  // Too many gaps: the oldest ones become one span (values committed between them come again
  // with the same record ids: at-least-once, never lost).
  while (kept.length > MAX_SPANS) kept = [{ from: kept[0]!.from, to: kept[1]!.to > kept[0]!.to ? kept[1]!.to : kept[0]!.to }, ...kept.slice(2)];
  return JSON.stringify(kept.map((s) => [isoMicros(s.from), isoMicros(s.to)]));
}
