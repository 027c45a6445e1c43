/** The words of the data-quality findings (detail of GET /v1/streams, log lines). */

/** A duration as an operator says it: "45 s", "12 min", "2 h 5 min", "3 d 4 h". */
export function duration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s`;
  const min = Math.floor(s / 60);
  if (min < 60) return `${min} min`;
  const h = Math.floor(min / 60);
  if (h < 24) return min % 60 === 0 ? `${h} h` : `${h} h ${min % 60} min`;
  const d = Math.floor(h / 24);
  return h % 24 === 0 ? `${d} d` : `${d} d ${h % 24} h`;
}

const records = (n: number) => `${n} record${n === 1 ? '' : 's'}`;

export const words = {
  stuck: (field: string, value: number, ms: number, count: number) => `${field} has read ${value} for ${duration(ms)} (${records(count)})`,
  range: (field: string, worst: number, [low, high]: [number, number], count: number) =>
    `${field} read ${worst}, outside [${low}, ${high}] (${records(count)} out of range)`,
  gap: (ms: number, usualMs: number | undefined) => `no record for ${duration(ms)}${usualMs === undefined ? '' : ` (usually one every ${duration(usualMs)})`}`,
  ahead: (time: number, ms: number) => `record time ${new Date(time).toISOString()} is ${duration(ms)} ahead of this PC's clock`,
  behind: (time: number, ms: number) => `record time ${new Date(time).toISOString()} is ${duration(ms)} behind this PC's clock`,
  schema: (before: readonly string[], after: readonly string[]) => {
    const added = after.filter((c) => !before.includes(c));
    const removed = before.filter((c) => !after.includes(c));
    const list = (names: string[]) => names.slice(0, 10).join(', ') + (names.length > 10 ? ` and ${names.length - 10} more` : '');
    const parts = [added.length > 0 ? `added ${list(added)}` : '', removed.length > 0 ? `removed ${list(removed)}` : ''].filter(Boolean);
    return `the columns changed: ${parts.join('; ')}`;
  },
};
