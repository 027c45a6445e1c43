import { describe, expect, it } from 'vitest';
import type { ComponentContext } from '../../components/contract.js';
import { FileDiscovery } from './file-discovery.js';
import type { FileAccess } from './file-access.js';
import type { FileStream } from './file-streams.js';
import { INLINE_CHUNK_BYTES, type ParseWorkers } from '../../workers/parse-worker-pool.js';

const SPLIT_BYTES = 1024 * 1024;

/** A discovery whose parse threads only record how many threads it asked to start. */
function discovery(split = true) {
  const warmed: number[] = [];
  const worker: ParseWorkers = { size: 2, parse: () => Promise.reject(new Error('not read here')), warm: (threads) => warmed.push(threads) };
  const context = { store: { fileProgress: () => undefined } } as unknown as ComponentContext;
  const found = new FileDiscovery({
    receiver: 'drop',
    pollIntervalSeconds: 1,
    deleteCompleted: false,
    context,
    worker,
    running: () => true,
    split: split ? { minBytes: SPLIT_BYTES } : undefined,
  });
  return { found, warmed };
}

const stream: FileStream = { key: { asset: 'Line_1', stream_type: 'process' }, filters: [], parser: undefined };
const local: FileAccess = { readPrefix: async () => Buffer.alloc(0), exists: async () => true, remove: async () => undefined };
const share: FileAccess = { ...local, readRange: async () => Buffer.alloc(0) };
const file = (name: string, size: number) => ({ path: `/drop/${name}`, size, mtimeMs: 1 });

describe('file discovery: parse threads start at the first look of a drop', () => {
  it('starts a thread for each big file waiting for its second look, none for a few rows', async () => {
    const { found, warmed } = discovery();
    // First looks: each file is looked at again before it is read.
    expect(await found.visit(stream, file('few.csv', INLINE_CHUNK_BYTES), local)).toBe(true);
    expect(warmed).toEqual([]);
    await found.visit(stream, file('m0.csv', 200_000), local);
    await found.visit(stream, file('m1.csv', 200_000), local);
    expect(warmed).toEqual([1, 2]);
    // m0 is gone before its second look: a new big file counts with m1 only.
    found.retain(new Set(['/drop/m1.csv']), '/drop');
    await found.visit(stream, file('m2.csv', 200_000), local);
    expect(warmed.at(-1)).toBe(2);
    found.retain(new Set(), '/drop');
    await found.visit(stream, file('m3.csv', 200_000), local);
    expect(warmed.at(-1)).toBe(1);
  });

  it('starts two threads for one file big enough to be split, one when it is on a share or splitting is off', async () => {
    const big = file('big.csv', SPLIT_BYTES);
    const localDrop = discovery();
    await localDrop.found.visit(stream, big, local);
    expect(localDrop.warmed).toEqual([2]);
    const shareDrop = discovery();
    await shareDrop.found.visit(stream, big, share);
    expect(shareDrop.warmed).toEqual([1]);
    const ordered = discovery(false);
    await ordered.found.visit(stream, big, local);
    expect(ordered.warmed).toEqual([1]);
  });
});
