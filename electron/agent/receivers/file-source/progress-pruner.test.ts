import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDirectory } from '../../../testing/test-host.js';
import type { LogFile } from '../../logging/log-file.js';
import { Logger, Redactor } from '../../logging/logger.js';
import { SystemClock } from '../../time/clock.js';
import { AgentStore } from '../../store/agent-store.js';
import { ProgressPruner } from './progress-pruner.js';

const stores: AgentStore[] = [];
afterEach(() => stores.splice(0).forEach((s) => s.close()));
const stream = { asset: 'M1', stream_type: 'cycle' };
const HOUR = 60 * 60_000;

function storeWith(paths: readonly string[]): AgentStore {
  const store = new AgentStore(path.join(tempDirectory(), 'agent.db'));
  stores.push(store);
  // One transaction for all of them (a sync per file would take seconds).
  store.commitAll(paths.map((file) => ({ receiver: 'drop', stream, entries: [], progress: { file: { path: file, size: 10, mtimeMs: 1, offset: 10, fingerprint: '10:abc', parserState: '{}' } } })));
  return store;
}

function pruner(store: AgentStore, clock: { now: number }) {
  return new ProgressPruner({ receiver: 'drop', store, logger: new Logger({ append: () => undefined } as unknown as LogFile, new Redactor(), new SystemClock(), 'test'), running: () => true, pruneAfterMs: HOUR, pruneEveryMs: 0, now: () => clock.now });
}

const known = (store: AgentStore, file: string) => store.fileProgress('drop', stream, file) !== undefined;

describe('progress of vanished files', () => {
  it('is forgotten once a file was missing for the grace period, kept while it is listed or comes back in time', async () => {
    const store = storeWith(['/d/a.csv', '/d/b.csv', '/d/c.csv']);
    const clock = { now: 0 };
    const prune = pruner(store, clock);
    const everything = () => true;
    // b and c are gone; a stays.
    expect(await prune.prune(new Set(['/d/a.csv']), everything)).toBe(0);
    clock.now = HOUR / 2;
    // c is back within the hour: its progress stays (and its clock starts again if it goes).
    expect(await prune.prune(new Set(['/d/a.csv', '/d/c.csv']), everything)).toBe(0);
    clock.now = HOUR;
    expect(await prune.prune(new Set(['/d/a.csv']), everything)).toBe(1);
    expect([known(store, '/d/a.csv'), known(store, '/d/b.csv'), known(store, '/d/c.csv')]).toEqual([true, false, true]);
    clock.now = 2 * HOUR;
    expect(await prune.prune(new Set(['/d/a.csv']), everything)).toBe(1);
    expect(known(store, '/d/c.csv')).toBe(false);
  });

  it('keeps the progress of files a listing could not see (an unreadable subfolder, a share that is down)', async () => {
    const store = storeWith(['/d/a.csv', '/d/locked/b.csv', '/other/c.csv']);
    const clock = { now: 0 };
    const prune = pruner(store, clock);
    const covered = (file: string) => file.startsWith('/d/') && !file.startsWith('/d/locked/');
    await prune.prune(new Set(), covered);
    clock.now = 3 * HOUR;
    expect(await prune.prune(new Set(), covered)).toBe(1);
    expect([known(store, '/d/a.csv'), known(store, '/d/locked/b.csv'), known(store, '/other/c.csv')]).toEqual([false, true, true]);
  });

  it('walks thousands of rows in pages and forgets them in few transactions', async () => {
    const files = Array.from({ length: 2500 }, (_, i) => `/d/f${String(i).padStart(5, '0')}.csv`);
    const store = storeWith(files);
    const clock = { now: 0 };
    const prune = pruner(store, clock);
    const listed = new Set(files.slice(0, 1000));
    await prune.prune(listed, () => true);
    clock.now = HOUR;
    expect(await prune.prune(listed, () => true)).toBe(1500);
    expect(store.progressPage('drop', undefined, 5000)).toHaveLength(1000);
  });
});
