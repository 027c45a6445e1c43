/**
 * The spec's time stamps (meta and marker times), without the envelope's schemas: what the agent's
 * threads need of shared/api (envelope.ts re-exports them).
 */

/** `YYYY-MM-DD HH:MM:SS.ffffff` in UTC, the spec's form for meta and marker timestamps. */
export function formatSpecTimestamp(epochMicros: bigint): string {
  const iso = new Date(Number(epochMicros / 1000n)).toISOString(); // 2024-01-02T03:04:05.678Z
  const fraction = String(((epochMicros % 1_000_000n) + 1_000_000n) % 1_000_000n).padStart(6, '0');
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}.${fraction}`;
}

/** Current time in epoch microseconds (millisecond clock plus sub-millisecond hrtime fraction). */
export function nowMicros(): bigint {
  return BigInt(Date.now()) * 1000n;
}

/** Parses the spec form or ISO 8601 into epoch microseconds; undefined when unreadable. */
export function parseTimestampToMicros(text: string): bigint | undefined {
  const spec = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})(?:\.(\d{1,6}))?(Z|[+-]\d{2}:?\d{2})?$/.exec(text.trim());
  if (!spec) return undefined;
  const [, date, time, fraction = '', zone = 'Z'] = spec;
  const millis = Date.parse(`${date}T${time}${zone === 'Z' ? 'Z' : zone}`);
  if (Number.isNaN(millis)) return undefined;
  return BigInt(millis) * 1000n + BigInt(fraction.padEnd(6, '0'));
}
