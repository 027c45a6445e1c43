import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentRecord } from '../../../../shared/records/record.js';
import { LogFile } from '../../logging/log-file.js';
import { Logger, Redactor } from '../../logging/logger.js';
import { AgentStore } from '../../store/agent-store.js';
import { SystemClock } from '../../time/clock.js';
import { waitFor } from '../../../testing/file-plant.js';
import { tempDirectory } from '../../../testing/test-host.js';
import { encodeBodies } from './upload-bodies.js';
import { INLINE_BYTES, type RoundRequest, UploadEncoder } from './upload-encoder.js';
import { UPLOAD_OUTBOX } from './upload-outbox.js';
import { decodeUpload } from './wire.js';

const logger = () => new Logger(new LogFile(`${tempDirectory()}/agent_core.log`, { maxBytes: 1e6, keep: 1 }), new Redactor(), new SystemClock(), 'test');
const never = () => {
  throw new Error('only upload batches in these tests');
};
const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

/** Rows whose numbers do not compress away: `count` of them are roughly 40 stored bytes each. */
const record = (asset: string, i: number): AgentRecord => ({
  asset,
  stream_type: 'cycle',
  timestamp: new Date(Date.UTC(2026, 0, 5, 6, 0, 0, i)).toISOString().replace('Z', '000Z'),
  capturetime: '2026-01-05T07:00:00.000000Z',
  record_id: `id${String(i).padStart(8, '0')}`,
  fieldvalues: { part: i, force: Math.sin(i) * 1000 },
});

function setUp(idleMs = 60_000) {
  const store = new AgentStore(path.join(tempDirectory(), 'agent.db'));
  const encoder = new UploadEncoder('encode:test', store, never, logger(), idleMs);
  cleanup.push(() => store.close(), () => encoder.close());
  /** Queues one batch per entry of `sizes` (records each, alternating two machines); returns the round's request and stored bytes. */
  const queue = (sizes: number[], useEncryption = false): { request: RoundRequest; storedBytes: number } => {
    let next = 0;
    for (const [k, size] of sizes.entries()) {
      const asset = k % 2 ? 'M2' : 'M1';
      const records = Array.from({ length: size }, () => record(asset, next++));
      const [batch] = UPLOAD_OUTBOX.encode(records, { maxRequestRecords: 100_000 });
      store.commit('r', { asset, stream_type: 'cycle' }, [{ transmit: 'cloud', asset, stream_type: 'cycle', format: UPLOAD_OUTBOX.format, records: size, payload: batch!.payload }], {});
    }
    const rows = store.peekMeta('cloud', 1000);
    const request = { storeFile: store.file, transmit: 'cloud', ids: rows.map((row) => row.id), records: next, maxRecords: 100_000, maxRequestBytes: 4 * 1024 * 1024, apiKey: 'secret', useEncryption };
    return { request, storedBytes: rows.reduce((sum, row) => sum + row.bytes, 0) };
  };
  return { store, encoder, queue };
}

const idsOf = (body: Buffer, encrypted = false) => decodeUpload(body, { apiKey: 'secret', encrypted }).map((document) => document.record_id);

describe('UploadEncoder: small rounds on the calling thread, bulk deletes and merges on the encode thread', () => {
  it('sends a single stored batch as it is, never starting the thread', async () => {
    const { store, encoder, queue } = setUp();
    const { request, storedBytes } = queue([200]);
    const round = await encoder.encode(request, storedBytes);
    expect(round).toMatchObject({ onThread: false, ackOnThread: false });
    expect(round.bodies).toHaveLength(1);
    expect(round.bodies[0]!.body.equals(store.payloadsOf('cloud', request.ids)[0]!.payload)).toBe(true);
    await encoder.ack(request, round);
    expect(store.backlog('cloud').records).toBe(0);
    expect(encoder.threadRunning).toBe(false);
  });

  it('merges a few small batches here, sorted by machine and time, as the thread would', async () => {
    const { encoder, queue } = setUp();
    const { request, storedBytes } = queue([3, 4, 5], true);
    expect(storedBytes).toBeLessThanOrEqual(INLINE_BYTES);
    const round = await encoder.encode(request, storedBytes);
    expect(round.onThread).toBe(false);
    expect(encoder.threadRunning).toBe(false);
    // M1 took records 0-2 and 7-11, M2 3-6: one body, M1's first.
    expect(idsOf(round.bodies[0]!.body, true)).toEqual([0, 1, 2, 7, 8, 9, 10, 11, 3, 4, 5, 6].map((i) => `id${String(i).padStart(8, '0')}`));
  });

  it('sends one big stored batch as it is and deletes it here, never starting the thread', async () => {
    const { store, encoder, queue } = setUp();
    const { request, storedBytes } = queue([3000], true);
    expect(storedBytes).toBeGreaterThan(INLINE_BYTES);
    const round = await encoder.encode(request, storedBytes);
    expect(round).toMatchObject({ onThread: false, ackOnThread: false, bulk: true });
    expect(idsOf(round.bodies[0]!.body, true)).toHaveLength(3000);
    await encoder.ack(request, round);
    expect(store.backlog('cloud').records).toBe(0);
    expect(encoder.threadRunning).toBe(false);
  });

  it('deletes one big stored batch on the thread while a merged round keeps it running', async () => {
    const { store, encoder, queue } = setUp();
    const merge = queue(Array.from({ length: 40 }, () => 500));
    const merged = await encoder.encode(merge.request, merge.storedBytes);
    expect(merged).toMatchObject({ onThread: true, ackOnThread: true });
    await encoder.ack(merge.request, merged);
    expect(encoder.threadReady).toBe(true);
    const single = queue([3000]);
    const round = await encoder.encode(single.request, single.storedBytes);
    expect(round).toMatchObject({ onThread: false, ackOnThread: true });
    await encoder.ack(single.request, round);
    expect(store.backlog('cloud').records).toBe(0);
  });

  it('encodes a big round on the thread, byte for byte what this thread makes, deletes there, and ends the thread when idle', async () => {
    const { store, encoder, queue } = setUp(300);
    // Enough batches that together they are more than INLINE_BYTES.
    const { request, storedBytes } = queue(Array.from({ length: 40 }, () => 500));
    expect(storedBytes).toBeGreaterThan(INLINE_BYTES);
    const round = await encoder.encode(request, storedBytes);
    expect(round).toMatchObject({ onThread: true, ackOnThread: true });
    expect(encoder.threadRunning).toBe(true);
    const here = encodeBodies(store, request, never);
    expect(round.bodies.map((part) => part.body.toString('base64'))).toEqual(here.map((part) => part.body.toString('base64')));
    expect(round.bodies.reduce((sum, part) => sum + part.records, 0)).toBe(20_000);
    // While the thread runs, a small round's delete goes there too.
    await encoder.ack(request, round);
    expect(store.backlog('cloud').records).toBe(0);
    const small = queue([2]);
    expect(await encoder.encode(small.request, small.storedBytes)).toMatchObject({ ackOnThread: true });
    await waitFor(() => !encoder.threadRunning, 5000, 'the idle thread to end');
    // And after it ended, small rounds are made here again.
    expect(await encoder.encode(small.request, small.storedBytes)).toMatchObject({ onThread: false, ackOnThread: false });
  });

  it('ends the thread after the last bulk round even while small rounds keep coming', async () => {
    const { store, encoder, queue } = setUp(400);
    const big = queue(Array.from({ length: 40 }, () => 500));
    await encoder.ack(big.request, await encoder.encode(big.request, big.storedBytes));
    expect(encoder.threadRunning).toBe(true);
    // A plant sending a few records every 100 ms after a backlog: the thread still ends.
    await waitFor(async () => {
      const small = queue([2]);
      await encoder.ack(small.request, await encoder.encode(small.request, small.storedBytes));
      await new Promise((resolve) => setTimeout(resolve, 100));
      return !encoder.threadRunning;
    }, 5000, 'the thread to end between small rounds');
    expect(store.backlog('cloud').records).toBe(0);
  });
});
