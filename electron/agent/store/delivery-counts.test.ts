import Database from 'better-sqlite3';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDirectory } from '../../testing/test-host.js';
import { openStore } from '../../testing/test-stores.js';
import { AgentStore } from './agent-store.js';

const open = openStore;
const entry = (transmit: string, asset: string, records: number) => ({ transmit, asset, stream_type: 'cycle', format: 'opaque', records, payload: Buffer.alloc(64) });
const of = (store: AgentStore, transmit: string, asset: string) => store.outboxStreams().find((row) => row.transmit === transmit && row.asset === asset);

describe('delivery per stream in the store', () => {
  it('counts waiting and sent records per transmit and stream, whichever connection queues or acknowledges', () => {
    const file = path.join(tempDirectory(), 'agent.db');
    const main = open(file);
    const worker = open(file);
    worker.commit('r', { asset: 'M1', stream_type: 'cycle' }, [entry('cloud', 'M1', 3), entry('csv', 'M1', 3)], {});
    worker.commit('r', { asset: 'M2', stream_type: 'cycle' }, [entry('cloud', 'M2', 5)], {});
    worker.commit('r', { asset: 'M1', stream_type: 'cycle' }, [entry('cloud', 'M1', 4)], {});
    expect(of(main, 'cloud', 'M1')).toMatchObject({ waiting: 7, sent: 0 });
    expect(of(main, 'cloud', 'M2')).toMatchObject({ waiting: 5, sent: 0 });
    const firstQueued = of(main, 'cloud', 'M1')!.oldestAt!;
    expect(Math.abs(firstQueued - Date.now())).toBeLessThan(60_000);

    // cloud takes M1's first batch and M2's: M1's second waits, with its own (later or equal) time.
    const [m1First, m2] = main.peekMeta('cloud', 2);
    main.ack('cloud', [m1First!.id, m2!.id]);
    expect(of(main, 'cloud', 'M1')).toMatchObject({ waiting: 4, sent: 3 });
    expect(of(main, 'cloud', 'M1')!.oldestAt).toBeGreaterThanOrEqual(firstQueued);
    expect(of(main, 'cloud', 'M2')).toMatchObject({ waiting: 0, sent: 5, oldestAt: null });
    // Another transmit of the same stream is counted apart.
    expect(of(main, 'csv', 'M1')).toMatchObject({ waiting: 3, sent: 0 });
    expect(main.sentBy('cloud')).toBe(8);
    expect(main.sentBy('csv')).toBe(0);
  });

  it('keeps records read and the newest record per stream, across a reopen', () => {
    const file = path.join(tempDirectory(), 'agent.db');
    const store = open(file);
    const stream = { asset: 'M1', stream_type: 'cycle' };
    store.commit('r', stream, [entry('cloud', 'M1', 2)], {}, undefined, { records: 2, lastTimestamp: '2026-01-01T00:00:01.000000' });
    // A batch with no time stamp keeps the last known one; a batch of nothing counts nothing.
    store.commit('r', stream, [], {}, undefined, { records: 3 });
    store.commit('r', stream, [], {}, undefined, { records: 0, lastTimestamp: '2030-01-01T00:00:00.000000' });
    store.close();
    const again = open(file);
    expect(again.streamTotals()).toEqual([
      { receiver: 'r', asset: 'M1', stream_type: 'cycle', recordsRead: 5, lastRecordAt: expect.any(Number), lastRecordTimestamp: '2026-01-01T00:00:01.000000' },
    ]);
  });

  it('fills the counts of a store made before them from the batches it holds', () => {
    const file = path.join(tempDirectory(), 'agent.db');
    const store = open(file);
    store.commit('r', { asset: 'M1', stream_type: 'cycle' }, [entry('cloud', 'M1', 3), entry('cloud', 'M1', 4)], {});
    store.close();
    // The store as an older version left it: no counts, no triggers.
    const db = new Database(file);
    db.exec('DROP TRIGGER outbox_streams_queued; DROP TRIGGER outbox_streams_sent; DROP TABLE outbox_streams');
    db.close();
    const again = open(file);
    expect(of(again, 'cloud', 'M1')).toMatchObject({ waiting: 7, sent: 0 });
    again.ack('cloud', again.peekMeta('cloud', 1).map((row) => row.id));
    expect(of(again, 'cloud', 'M1')).toMatchObject({ waiting: 4, sent: 3 });
  });

  it('finds the oldest waiting batch of a stream from the index, without reading payloads', () => {
    const store = open(path.join(tempDirectory(), 'agent.db'));
    const db = (store as unknown as { db: Database.Database }).db;
    const plan = db
      .prepare("EXPLAIN QUERY PLAN SELECT created_at FROM outbox WHERE transmit = 'a' AND asset = 'b' AND stream_type = 'c' ORDER BY id LIMIT 1")
      .all() as { detail: string }[];
    expect(plan.map((row) => row.detail).join(' ')).toContain('COVERING INDEX outbox_by_stream');
  });
});
