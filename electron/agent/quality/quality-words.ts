/** The words of the data-quality findings (detail of GET /v1/streams, log lines). */
import { type AgentMessage, say } from '../../../shared/config/message.js';

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

/** Each finding's words with a code and parameters (issue 57): the console writes them in its language. */
export const words = {
  stuck: (field: string, value: number, ms: number, count: number): AgentMessage =>
    count === 1
      ? say('quality.stuck_one', '{field} has read {value} for {duration} ({count} record)', { field, value, duration: duration(ms), count })
      : say('quality.stuck', '{field} has read {value} for {duration} ({count} records)', { field, value, duration: duration(ms), count }),
  range: (field: string, worst: number, [low, high]: [number, number], count: number): AgentMessage =>
    count === 1
      ? say('quality.range_one', '{field} read {worst}, outside [{low}, {high}] ({count} record out of range)', { field, worst, low, high, count })
      : say('quality.range', '{field} read {worst}, outside [{low}, {high}] ({count} records out of range)', { field, worst, low, high, count }),
  gap: (ms: number, usualMs: number | undefined): AgentMessage =>
    usualMs === undefined
      ? say('quality.gap', 'no record for {duration}', { duration: duration(ms) })
      : say('quality.gap_usual', 'no record for {duration} (usually one every {usual})', { duration: duration(ms), usual: duration(usualMs) }),
  ahead: (time: number, ms: number): AgentMessage =>
    say('quality.clock_ahead', "record time {time} is {duration} ahead of this PC's clock", { time: new Date(time).toISOString(), duration: duration(ms) }),
  behind: (time: number, ms: number): AgentMessage =>
    say('quality.clock_behind', "record time {time} is {duration} behind this PC's clock", { time: new Date(time).toISOString(), duration: duration(ms) }),
  schema: (before: readonly string[], after: readonly string[]): AgentMessage => {
    const added = after.filter((c) => !before.includes(c));
    const removed = before.filter((c) => !after.includes(c));
    const list = (names: string[]) => names.slice(0, 10).join(', ') + (names.length > 10 ? ` and ${names.length - 10} more` : '');
    if (added.length > 0 && removed.length > 0) return say('quality.columns_changed', 'the columns changed: added {added}; removed {removed}', { added: list(added), removed: list(removed) });
    if (added.length > 0) return say('quality.columns_added', 'the columns changed: added {added}', { added: list(added) });
    return say('quality.columns_removed', 'the columns changed: removed {removed}', { removed: list(removed) });
  },
};
