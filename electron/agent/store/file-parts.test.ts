import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDirectory } from '../../testing/test-host.js';
import { mergeOf } from '../receivers/file-source/file-split.js';
import { AgentStore } from './agent-store.js';

const stores: AgentStore[] = [];
afterEach(() => stores.splice(0).forEach((s) => s.close()));
const stream = { asset: 'M1', stream_type: 'cycle' };
const state = (linesSeen: number, counter: number) => JSON.stringify({ header: ['a'], rowsSeen: linesSeen, linesSeen, counter, encoding: 'utf_8' });
const fileAt = (offset: number) => ({ path: '/drop/big.csv', size: 1000, mtimeMs: 1, offset, fingerprint: '4:abc', parserState: state(1, 0) });
const entry = { transmit: 'cloud', asset: 'M1', stream_type: 'cycle', format: 'opaque', records: 1, payload: Buffer.from('x') };

function splitStore(): AgentStore {
  const store = new AgentStore(path.join(tempDirectory(), 'agent.db'));
  stores.push(store);
  store.commit('r', stream, [], { file: fileAt(100) });
  const parts = [
    { start: 100, end: 500, offset: 100, parserState: state(1, 0) },
    { start: 500, end: 1000, offset: 500, parserState: state(40, 0) },
  ];
  expect(store.splitFile('r', stream, fileAt(100), 100, parts)).toBe(true);
  return store;
}

describe('progress of a file read in two parts', () => {
  it('splits only a file whose progress is where the reader saw it, and only once', () => {
    const store = splitStore();
    expect(store.splitFile('r', stream, fileAt(100), 100, [])).toBe(false); // parts exist already
    store.forgetFile('r', stream, '/drop/big.csv');
    store.commit('r', stream, [], { file: fileAt(200) });
    expect(store.splitFile('r', stream, fileAt(100), 100, [{ start: 100, end: 1000, offset: 100, parserState: state(1, 0) }])).toBe(false);
    expect(store.partsOf('r', stream, '/drop/big.csv')).toEqual([]);
  });

  it('commits a chunk of a part only from where the part stands: records and offset together or neither', () => {
    const store = splitStore();
    store.commit('r', stream, [entry], { part: { path: '/drop/big.csv', start: 500, from: 500, offset: 700, parserState: state(60, 5) } });
    // The same chunk again (a second reader, a replay after the commit): refused, nothing queued.
    expect(() => store.commit('r', stream, [entry], { part: { path: '/drop/big.csv', start: 500, from: 500, offset: 700, parserState: state(60, 5) } })).toThrow(/no longer read/);
    expect(store.backlog('cloud').records).toBe(1);
    expect(store.partsOf('r', stream, '/drop/big.csv').map((p) => p.offset)).toEqual([100, 700]);
    // The file's own progress stays where the parts begin until they are merged.
    expect(store.fileProgress('r', stream, '/drop/big.csv')?.offset).toBe(100);
  });

  it('merges only when the first part is read to its end, into the file at the last part\'s offset with the counters added', () => {
    const store = splitStore();
    const identity = { path: '/drop/big.csv', size: 1000, mtimeMs: 1, fingerprint: '4:abc' };
    expect(store.mergeParts('r', stream, identity, mergeOf)).toBeUndefined();
    store.commit('r', stream, [], { part: { path: '/drop/big.csv', start: 100, from: 100, offset: 500, parserState: state(40, 30) } });
    store.commit('r', stream, [], { part: { path: '/drop/big.csv', start: 500, from: 500, offset: 990, parserState: state(80, 35) } });
    const merged = store.mergeParts('r', stream, identity, mergeOf);
    expect(merged?.offset).toBe(990);
    expect(JSON.parse(store.fileProgress('r', stream, '/drop/big.csv')!.parserState)).toEqual({ header: ['a'], rowsSeen: 80, linesSeen: 80, counter: 65, encoding: 'utf_8' });
    expect(store.partsOf('r', stream, '/drop/big.csv')).toEqual([]);
    // A late chunk of a merged part is refused.
    expect(() => store.commit('r', stream, [entry], { part: { path: '/drop/big.csv', start: 500, from: 990, offset: 1000, parserState: state(81, 36) } })).toThrow(/no longer read/);
  });

  it('moves the parts with a renamed file; forgetting the file or a restream drops them', () => {
    const store = splitStore();
    store.moveFile('r', stream, '/drop/big.csv', '/drop/big.csv.1');
    expect(store.fileProgress('r', stream, '/drop/big.csv')).toBeUndefined();
    expect(store.partsOf('r', stream, '/drop/big.csv.1').map((p) => p.start)).toEqual([100, 500]);
    store.forgetFile('r', stream, '/drop/big.csv.1');
    expect(store.partsOf('r', stream, '/drop/big.csv.1')).toEqual([]);
    const again = splitStore();
    again.purge('r', [stream]);
    expect(again.partsOf('r', stream, '/drop/big.csv')).toEqual([]);
    expect(again.fileProgress('r', stream, '/drop/big.csv')).toBeUndefined();
  });
});
