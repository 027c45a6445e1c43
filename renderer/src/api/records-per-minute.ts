import type { FlowHistory } from '../../../shared/api/history.js';

/**
 * Records read per minute by all of an agent's streams, one value per minute from `history.start`
 * (the Agents page's sparkline). Minutes without records are 0; points outside the window are left out.
 */
export function recordsPerMinute(history: Pick<FlowHistory, 'start' | 'streams'>, minutes: number): number[] {
  const start = Date.parse(history.start);
  const perMinute = new Array<number>(minutes).fill(0);
  for (const stream of history.streams)
    for (const point of stream.points) {
      const index = Math.round((Date.parse(point.minute) - start) / 60_000);
      if (index >= 0 && index < minutes) perMinute[index]! += point.records_in;
    }
  return perMinute;
}
