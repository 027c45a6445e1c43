import { describe, expect, it } from 'vitest';
import { recordsPerMinute } from './records-per-minute.js';

const stream = (name: string, points: [string, number][]) => ({
  data_receiver: 'r', asset: name, stream_type: 'cycle',
  points: points.map(([minute, records_in]) => ({ minute, records_in })),
});

describe('recordsPerMinute (the Agents page sparkline)', () => {
  it('adds every stream\'s records into its minute; silent minutes are 0 and nothing outside the hour counts', () => {
    const values = recordsPerMinute({
      start: '2026-11-27T10:00:00.000Z',
      streams: [
        // 11:00 is past the hour asked for (10:00 … 10:59).
        stream('Press_1', [
          ['2026-11-27T10:00:00.000Z', 5], ['2026-11-27T10:59:00.000Z', 7], ['2026-11-27T11:00:00.000Z', 99],
        ]),
        stream('Press_2', [['2026-11-27T09:59:00.000Z', 99], ['2026-11-27T10:59:00.000Z', 3]]),
      ],
    }, 60);
    expect(values).toHaveLength(60);
    expect(values[0]).toBe(5);
    expect(values[59]).toBe(10);
    expect(values.slice(1, 59).every((v) => v === 0)).toBe(true);
  });
});
