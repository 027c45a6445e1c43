import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDirectory } from '../../testing/test-host.js';
import { openStore } from '../../testing/test-stores.js';
import { AgentStore, OutboxFullError } from './agent-store.js';

const open = openStore;

describe('outbox limits', () => {
  it('hold across connections: a commit that would pass the limit commits nothing, progress included', () => {
    const file = path.join(tempDirectory(), 'agent.db');
    const main = open(file);
    const worker = open(file);
    const stream = { asset: 'M1', stream_type: 'cycle' };
    const entry = (bytes: number) => ({ transmit: 'cloud', asset: 'M1', stream_type: 'cycle', format: 'opaque', records: 1, payload: Buffer.alloc(bytes) });
    const limits = new Map([['cloud', 1000]]);
    // An empty outbox takes a batch bigger than the limit, so reading can always go on.
    main.commit('r', stream, [entry(1500)], { state: { k: '1' } }, limits);
    expect(() => worker.commit('r', stream, [entry(10)], { state: { k: '2' } }, limits)).toThrow(OutboxFullError);
    expect(main.streamState('r', stream, 'k')).toBe('1');
    main.ack('cloud', main.peekMeta('cloud', 10).map((row) => row.id));
    worker.commit('r', stream, [entry(600)], { state: { k: '3' } }, limits);
    expect(() => main.commit('r', stream, [entry(600)], { state: { k: '4' } }, limits)).toThrow(OutboxFullError);
    main.commit('r', stream, [entry(400)], { state: { k: '5' } }, limits);
    expect(main.backlog('cloud')).toEqual({ batches: 2, records: 2, bytes: 1000 });
    expect(worker.streamState('r', stream, 'k')).toBe('5');
  });

  it('deletes acknowledged batches and keeps the outbox bytes right; commits after each ack are durable again (synchronous FULL)', () => {
    const store = open(path.join(tempDirectory(), 'agent.db'));
    const db = (store as unknown as { db: { pragma(source: string, options: { simple: true }): unknown } }).db;
    const stream = { asset: 'M1', stream_type: 'cycle' };
    for (const bytes of [100, 200, 300, 400]) store.commit('r', stream, [{ transmit: 'cloud', asset: 'M1', stream_type: 'cycle', format: 'opaque', records: 2, payload: Buffer.alloc(bytes) }], {});
    expect(store.queuedBytesOf('cloud')).toBe(1000);
    for (const left of [900, 700, 400, 0]) {
      store.ack('cloud', [store.peekMeta('cloud', 1)[0]!.id]);
      expect(store.queuedBytesOf('cloud')).toBe(left);
      // 2: FULL, the store's own durability for the next commit.
      expect(db.pragma('synchronous', { simple: true })).toBe(2);
    }
    expect(store.backlog('cloud')).toEqual({ batches: 0, records: 0, bytes: 0 });
  });

  it('deletes without holding up the API thread while another thread has the write lock, then waits as before', async () => {
    const file = path.join(tempDirectory(), 'agent.db');
    const store = open(file);
    const parseThread = open(file);
    const rawDb = (s: AgentStore) => (s as unknown as { db: { exec(sql: string): void; pragma(source: string, options: { simple: true }): unknown } }).db;
    const stream = { asset: 'M1', stream_type: 'cycle' };
    store.commit('r', stream, [{ transmit: 'cloud', asset: 'M1', stream_type: 'cycle', format: 'opaque', records: 2, payload: Buffer.alloc(100) }], {});
    const ids = store.peekMeta('cloud', 10).map((row) => row.id);
    // A parse thread's commit holds the write lock (through its sync).
    rawDb(parseThread).exec('BEGIN IMMEDIATE');
    let acked = false;
    const ack = store.ackWhenFree('cloud', ids).then(() => (acked = true));
    // The event loop runs on meanwhile: timers fire, the outbox can be read; nothing is deleted yet.
    const ticks = await new Promise<number>((resolve) => {
      let count = 0;
      const timer = setInterval(() => {
        count += 1;
        if (count === 10) {
          clearInterval(timer);
          resolve(count);
        }
      }, 2);
    });
    expect(ticks).toBe(10);
    expect(acked).toBe(false);
    expect(store.backlog('cloud').batches).toBe(1);
    rawDb(parseThread).exec('COMMIT');
    await ack;
    expect(store.backlog('cloud')).toEqual({ batches: 0, records: 0, bytes: 0 });
    // Other writes on this connection wait for the lock again (SQLite's busy timeout, 5 s).
    expect(rawDb(store).pragma('busy_timeout', { simple: true })).toBe(5000);
  });

  it('gives up waiting for the write lock when the transmit stops: the batch stays queued to be sent again', async () => {
    const file = path.join(tempDirectory(), 'agent.db');
    const store = open(file);
    const parseThread = open(file);
    const rawDb = (s: AgentStore) => (s as unknown as { db: { exec(sql: string): void } }).db;
    store.commit('r', { asset: 'M1', stream_type: 'cycle' }, [{ transmit: 'cloud', asset: 'M1', stream_type: 'cycle', format: 'opaque', records: 2, payload: Buffer.alloc(100) }], {});
    const ids = store.peekMeta('cloud', 10).map((row) => row.id);
    rawDb(parseThread).exec('BEGIN IMMEDIATE');
    const stopping = new AbortController();
    const ack = store.ackWhenFree('cloud', ids, stopping.signal);
    stopping.abort();
    // Rejected while the lock is still held (a stop that waited would have to wait for the COMMIT below).
    await expect(ack).rejects.toThrow(/stopped before the delivered batches were removed/);
    rawDb(parseThread).exec('COMMIT');
    expect(store.backlog('cloud')).toMatchObject({ batches: 1, records: 2 });
  });

  it('keeps payloads as they are, with their format, for the transmit to read', () => {
    const store = open(path.join(tempDirectory(), 'agent.db'));
    const payload = Buffer.from([0, 1, 2, 250]);
    store.commit('r', { asset: 'M1', stream_type: 'cycle' }, [{ transmit: 'cloud', asset: 'M1', stream_type: 'cycle', format: 'opaque', records: 3, payload }], {});
    expect(store.peek('cloud', 10)).toEqual([{ id: 1, transmit: 'cloud', asset: 'M1', stream_type: 'cycle', records: 3, bytes: 4, format: 'opaque', payload }]);
    expect(store.backlog('cloud')).toEqual({ batches: 1, records: 3, bytes: 4 });
  });
});

describe('commitAll (the batches of several streams read at one moment)', () => {
  const entry = (asset: string, bytes: number) => ({ transmit: 'cloud', asset, stream_type: 'cycle', format: 'opaque', records: 1, payload: Buffer.alloc(bytes) });
  const commits = (bytes: number, value: string) =>
    ['M1', 'M2', 'M3'].map((asset) => ({ receiver: 'r', stream: { asset, stream_type: 'cycle' }, entries: [entry(asset, bytes)], progress: { state: { k: value } } }));

  it('commits every stream\'s records and progress together', () => {
    const store = open(path.join(tempDirectory(), 'agent.db'));
    store.commitAll(commits(100, 'a'));
    expect(store.backlog('cloud')).toEqual({ batches: 3, records: 3, bytes: 300 });
    expect(['M1', 'M2', 'M3'].map((asset) => store.streamState('r', { asset, stream_type: 'cycle' }, 'k'))).toEqual(['a', 'a', 'a']);
  });

  it('holds the outbox limit for the batches together: past it, nothing of any stream is committed', () => {
    const store = open(path.join(tempDirectory(), 'agent.db'));
    const limits = new Map([['cloud', 250]]);
    store.commitAll(commits(10, 'a'), limits);
    // 30 queued + 3 × 100: the third batch passes 250, so the first two roll back with it.
    expect(() => store.commitAll(commits(100, 'b'), limits)).toThrow(OutboxFullError);
    expect(store.backlog('cloud')).toEqual({ batches: 3, records: 3, bytes: 30 });
    expect(['M1', 'M2', 'M3'].map((asset) => store.streamState('r', { asset, stream_type: 'cycle' }, 'k'))).toEqual(['a', 'a', 'a']);
  });
});
