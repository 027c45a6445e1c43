import path from 'node:path';
import { say } from '../../../shared/config/message.js';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDirectory } from '../../testing/test-host.js';
import { TransmitStatsBoard } from './transmit-stats.js';
import { AgentStore } from '../store/agent-store.js';
import { FlowHistoryStore } from '../store/flow-history-store.js';
import { MINUTE_MS, MinuteCounts } from './minute-counts.js';

const closers: { close(): void }[] = [];
afterEach(() => closers.splice(0).forEach((c) => c.close()));

describe('MinuteCounts', () => {
  it('gives the mean per minute over the last 5 minutes, or since the start when that is shorter (at least a minute)', () => {
    const counts = new MinuteCounts();
    const start = 1000 * MINUTE_MS;
    counts.add(100, start + 1_000);
    expect(counts.perMinute(start + 20_000, start)).toBe(100);
    counts.add(200, start + MINUTE_MS + 5_000);
    expect(counts.perMinute(start + 2 * MINUTE_MS, start)).toBe(150);
    // Ten minutes on, both minutes are out of the window.
    expect(counts.perMinute(start + 10 * MINUTE_MS, start)).toBe(0);
    expect(counts.since(1000)).toEqual([{ minute: 1001, count: 200 }]);
  });
});

describe('TransmitStatsBoard', () => {
  it('reports the rate of deliveries, the age of the oldest queued record and the time to drain the backlog', () => {
    const store = new AgentStore(path.join(tempDirectory(), 'agent.db'));
    closers.push(store);
    const board = new TransmitStatsBoard();
    board.register('cloud', 'remotedatapost');
    expect(board.snapshot(store).cloud).toMatchObject({ backlog_records: 0, records_per_minute: 0, lag_seconds: null, drain_seconds: 0 });

    const entry = { transmit: 'cloud', asset: 'M1', stream_type: 'cycle', format: 'opaque', records: 100, payload: Buffer.alloc(10) };
    for (let i = 0; i < 3; i++) store.commit('r', { asset: 'M1', stream_type: 'cycle' }, [entry], {});
    const later = Date.now() + 30_000;
    // Records wait, none delivered yet: no estimate.
    expect(board.snapshot(store, later).cloud).toMatchObject({ backlog_records: 300, drain_seconds: null });
    expect(board.snapshot(store, later).cloud!.lag_seconds).toBeGreaterThanOrEqual(29.5);

    board.success('cloud', 120, 1000);
    board.failure('cloud', 'refused');
    const stats = board.snapshot(store, later).cloud!;
    expect(stats).toMatchObject({ records_sent: 120, records_per_minute: 120, upload_errors: 1, last_error: 'refused' });
    // 300 records at 120 a minute.
    expect(stats.drain_seconds).toBe(150);
    // Said plainly: no code; said with a code (issue 57): the console can write it in its language; a delivery clears both.
    expect(stats).not.toHaveProperty('last_error_code');
    board.failure('cloud', say('upload.http_status', 'The server answered HTTP {status}.', { status: 502 }));
    expect(board.snapshot(store, later).cloud).toMatchObject({ last_error: 'The server answered HTTP 502.', last_error_code: 'upload.http_status', last_error_params: { status: 502 } });
    board.success('cloud', 1, 10);
    expect(board.snapshot(store, later).cloud).toMatchObject({ last_error: null });
    expect(board.snapshot(store, later).cloud).not.toHaveProperty('last_error_code');
  });
});

describe('FlowHistoryStore', () => {
  it('adds up a minute written twice (before and after a restart) and forgets minutes older than it is told', () => {
    const file = path.join(tempDirectory(), 'flow-history.db');
    const store = new FlowHistoryStore(file);
    closers.push(store);
    const press = { receiver: 'plant', asset: 'Press_1', stream_type: 'cycle' };
    store.write([{ ...press, minute: 10, records: 5 }, { ...press, minute: 2000, records: 7 }], [{ transmit: 'cloud', minute: 2000, records_out: 3, backlog_records: 9 }], 0);
    store.close();
    const reopened = new FlowHistoryStore(file);
    closers.push(reopened);
    reopened.write([{ ...press, minute: 2000, records: 1 }], [{ transmit: 'cloud', minute: 2000, records_out: 2, backlog_records: 4 }], 1000);
    expect(reopened.read(0)).toEqual({
      streams: [{ ...press, minute: 2000, records: 8 }],
      transmits: [{ transmit: 'cloud', minute: 2000, records_out: 5, backlog_records: 4 }],
    });
  });
});
