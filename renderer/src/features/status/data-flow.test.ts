import { describe, expect, it } from 'vitest';
import { backlogSeries, deliveryProblem, duration, freshness, pollIntervals, shownRate, streamSeries } from './data-flow.js';

const NOW = Date.parse('2026-11-24T14:00:30Z');

describe('freshness of a stream', () => {
  it('is fresh within 5 poll intervals, stale after, dead after an hour or with its receiver down', () => {
    const ago = (seconds: number) => new Date(NOW - seconds * 1000).toISOString();
    expect(freshness(ago(3), NOW, 2, true)).toBe('fresh');
    expect(freshness(ago(11), NOW, 2, true)).toBe('stale');
    expect(freshness(ago(11), NOW, 5, true)).toBe('fresh');
    expect(freshness(ago(3601), NOW, 5, true)).toBe('dead');
    expect(freshness(ago(3), NOW, 5, false)).toBe('dead');
    expect(freshness(null, NOW, 5, true)).toBe('none');
  });

  it('follows the expected interval when there is one: an idle file-drop stream of 15 min is not late after 25 s', () => {
    const ago = (seconds: number) => new Date(NOW - seconds * 1000).toISOString();
    expect(freshness(ago(25), NOW, 5, true, 900)).toBe('fresh');
    expect(freshness(ago(1300), NOW, 5, true, 900)).toBe('fresh');
    expect(freshness(ago(1360), NOW, 5, true, 900)).toBe('stale');
    expect(freshness(ago(5406), NOW, 5, true, 900)).toBe('dead');
    // A stream expected every 2 s is late after 8 s (1.5 × 2 + a poll of 5), silent after 17 s.
    expect(freshness(ago(9), NOW, 5, true, 2)).toBe('stale');
    expect(freshness(ago(18), NOW, 5, true, 2)).toBe('dead');
  });

  it('takes each receiver poll_interval from the configuration, 5 s when not given', () => {
    expect(pollIntervals({ data_receiver: [{ data_receiver_name: 'a', poll_interval: 2 }, { data_receiver_name: 'b' }, { nothing: 1 }] })).toEqual(new Map([['a', 2], ['b', 5]]));
    expect(pollIntervals(undefined).size).toBe(0);
  });
});

describe('history series', () => {
  const history = {
    start: '2026-11-24T13:58:00.000Z',
    end: '2026-11-24T14:00:00.000Z',
    streams: [{ data_receiver: 'files', asset: 'Press_1', stream_type: 'cycle', points: [{ minute: '2026-11-24T13:58:00.000Z', records_in: 60 }, { minute: '2026-11-24T14:00:00.000Z', records_in: 30 }] }],
    transmits: [{ transmit: 'archive', points: [{ minute: '2026-11-24T13:59:00.000Z', records_out: 5, backlog_records: 7 }] }],
    quality: [],
  };

  it('fills the minutes without records with 0 for a stream sparkline', () => {
    expect(streamSeries(history, 'files', 'Press_1', 'cycle', 3)).toEqual({
      times: [Date.parse('2026-11-24T13:58:00Z'), Date.parse('2026-11-24T13:59:00Z'), Date.parse('2026-11-24T14:00:00Z')],
      values: [60, 0, 30],
    });
    expect(streamSeries(history, 'files', 'Oven_2', 'process', 3).values).toEqual([0, 0, 0]);
  });

  it('gives a transmit backlog per minute the agent ran', () => {
    expect(backlogSeries(history, 'archive')).toEqual({ times: [Date.parse('2026-11-24T13:59:00Z')], values: [7] });
  });

  it('leaves the minutes the agent did not run as gaps (null), not zeros or a line across', () => {
    const minute = (m: number) => `2026-11-24T14:${String(m).padStart(2, '0')}:00.000Z`;
    const gap = {
      start: minute(0),
      end: minute(5),
      // Ran at 14:00, 14:01, then down, and again from 14:04.
      streams: [{ data_receiver: 'files', asset: 'Press_1', stream_type: 'cycle', points: [{ minute: minute(0), records_in: 60 }, { minute: minute(4), records_in: 20 }] }],
      transmits: [{ transmit: 'archive', points: [0, 1, 4, 5].map((m) => ({ minute: minute(m), records_out: 1, backlog_records: m * 10 })) }],
      quality: [],
    };
    expect(streamSeries(gap, 'files', 'Press_1', 'cycle', 6).values).toEqual([60, 0, null, null, 20, 0]);
    expect(backlogSeries(gap, 'archive')).toEqual({
      times: [0, 1, 2, 4, 5].map((m) => Date.parse(minute(m))),
      values: [0, 10, null, 40, 50],
    });
  });
});

describe('words and numbers', () => {
  it('says how long draining takes', () => {
    expect(duration(0.2)).toBe('1 s');
    expect(duration(150)).toBe('3 min');
    expect(duration(7500)).toBe('2 h 5 min');
  });
});

describe('delivery of a stream', () => {
  const at = (seconds: number) => new Date(NOW - seconds * 1000).toISOString();
  const transmit = (last_error: string | null) => ({ last_error }) as never;
  const running = { 'transmit:cloud': { status: 'running' as const }, 'transmit:archive': { status: 'running' as const } };

  it('is stuck when records wait at a transmit whose last delivery failed, with its error as the reason', () => {
    const delivery = { archive: { sent: 10, waiting: 0, oldest_waiting_at: null }, cloud: { sent: 0, waiting: 40, oldest_waiting_at: at(20) } };
    expect(deliveryProblem(delivery, { archive: transmit(null), cloud: transmit('connection refused by 127.0.0.1:1') }, running, NOW)).toEqual({ transmit: 'cloud', waiting: 40, reason: 'connection refused by 127.0.0.1:1' });
    // Nothing waiting: an old error does not make the stream stuck.
    expect(deliveryProblem({ cloud: { sent: 40, waiting: 0, oldest_waiting_at: null } }, { cloud: transmit('old') }, running, NOW)).toBeUndefined();
  });

  it('is stuck when records waited over 5 minutes or the transmit does not run; a short wait of a working transmit is not', () => {
    const waiting = (seconds: number) => ({ cloud: { sent: 0, waiting: 3, oldest_waiting_at: at(seconds) } });
    expect(deliveryProblem(waiting(30), { cloud: transmit(null) }, running, NOW)).toBeUndefined();
    expect(deliveryProblem(waiting(400), { cloud: transmit(null) }, running, NOW)?.reason).toBe('its oldest record has waited 7 min');
    expect(deliveryProblem(waiting(30), { cloud: transmit(null) }, { 'transmit:cloud': { status: 'stopped' } }, NOW)?.reason).toBe('the transmit is stopped');
  });
});

describe('records/min as shown', () => {
  it('is a whole number with thousands separators, and zero while the receiver is stopped', () => {
    expect(shownRate(12.4, true)).toBe('12');
    expect(shownRate(0.6, true)).toBe('1');
    expect(shownRate(1234.5, true)).toBe('1,235');
    expect(shownRate(57.3, false)).toBe('0');
  });
});
