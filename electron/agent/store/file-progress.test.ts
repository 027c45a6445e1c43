import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDirectory } from '../../testing/test-host.js';
import { fingerprintOf } from '../receivers/file-source/file-reader.js';
import { AgentStore } from './agent-store.js';

const stores: AgentStore[] = [];
afterEach(() => stores.splice(0).forEach((s) => s.close()));
const stream = { asset: 'M1', stream_type: 'cycle' };
const other = { asset: 'M2', stream_type: 'cycle' };

const head = (text: string) => fingerprintOf(Buffer.from(text));
const progress = (file: string, fingerprint: string) => ({ path: file, size: 5000, mtimeMs: 1, offset: 5000, fingerprint, parserState: '{}' });

describe('file progress found by its first bytes (adoption of renamed files)', () => {
  it('lists the fingerprint lengths in use in a range, and finds files by head, a rewritten version included', () => {
    const store = new AgentStore(path.join(tempDirectory(), 'agent.db'));
    stores.push(store);
    const big = head('x'.repeat(4096));
    const small = head('y'.repeat(300));
    store.commitAll([
      { receiver: 'r', stream, entries: [], progress: { file: progress('/d/a.csv', big) } },
      { receiver: 'r', stream, entries: [], progress: { file: progress('/d/b.csv', `${big}~1700000000000`) } },
      { receiver: 'r', stream, entries: [], progress: { file: progress('/d/c.csv', small) } },
      { receiver: 'r', stream, entries: [], progress: { file: progress('/d/d.csv', head('z'.repeat(100))) } },
      // Another stream's file with the same bytes is not a candidate.
      { receiver: 'r', stream: other, entries: [], progress: { file: progress('/d/e.csv', big) } },
    ]);
    expect([...store.fingerprintLengths('r', stream, 255, 4096)]).toEqual([300, 4096]);
    expect([...store.fingerprintLengths('r', stream, 255, 1000)]).toEqual([300]);
    expect(store.filesByHead('r', stream, big).map((f) => f.path).sort()).toEqual(['/d/a.csv', '/d/b.csv']);
    expect(store.filesByHead('r', stream, small).map((f) => f.path)).toEqual(['/d/c.csv']);
    expect(store.filesByHead('r', stream, head('w'.repeat(300)))).toEqual([]);
  });

  it('keeps the tail of the last bytes read when a commit brings none, and drops it with a new identity', () => {
    const store = new AgentStore(path.join(tempDirectory(), 'agent.db'));
    stores.push(store);
    const fingerprint = head('a'.repeat(400));
    store.commit('r', stream, [], { file: { ...progress('/d/a.csv', fingerprint), tail: '900:100:abc' } });
    store.commit('r', stream, [], { file: { ...progress('/d/a.csv', fingerprint), tail: '' } });
    expect(store.fileProgress('r', stream, '/d/a.csv')?.tail).toBe('900:100:abc');
    store.commit('r', stream, [], { file: { ...progress('/d/a.csv', `${fingerprint}~5`), tail: '' } });
    expect(store.fileProgress('r', stream, '/d/a.csv')?.tail).toBe('');
  });
});
