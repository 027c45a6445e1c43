import Database from 'better-sqlite3';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDirectory } from '../../testing/test-host.js';
import { openStore } from '../../testing/test-stores.js';
import { AgentStore } from './agent-store.js';

const open = openStore;

describe('bytes sent and upload errors kept across restarts', () => {
  it('never wait for the write lock a parse thread holds: the counts wait in memory and go with the next write', () => {
    const file = path.join(tempDirectory(), 'agent.db');
    const main = open(file);
    main.addTransmitTotals('cloud', 'remotedatapost', 1000, 0);
    // A parse thread's commit holds the write lock (through its sync).
    const parse = new Database(file);
    parse.exec('BEGIN IMMEDIATE');
    const started = Date.now();
    main.addTransmitTotals('cloud', 'remotedatapost', 500, 0);
    main.addTransmitTotals('cloud', 'remotedatapost', 0, 1);
    // The store's busy timeout is seconds: not waited for.
    expect(Date.now() - started).toBeLessThan(1000);
    expect(main.transmitTotals('cloud', 'remotedatapost')).toEqual({ bytes: 1500, errors: 1 });
    parse.exec('COMMIT');
    parse.close();
    main.addTransmitTotals('cloud', 'remotedatapost', 250, 0);
    // What another connection (the next start) reads: all of it, written.
    const next = new AgentStore(file);
    expect(next.transmitTotals('cloud', 'remotedatapost')).toEqual({ bytes: 1750, errors: 1 });
    next.close();
  });

  it('writes what is still waiting when the store closes', () => {
    const file = path.join(tempDirectory(), 'agent.db');
    const main = new AgentStore(file);
    const parse = new Database(file);
    parse.exec('BEGIN IMMEDIATE');
    main.addTransmitTotals('archive', 'csv', 64, 2);
    parse.exec('COMMIT');
    parse.close();
    main.close();
    const next = open(file);
    expect(next.transmitTotals('archive', 'csv')).toEqual({ bytes: 64, errors: 2 });
    // Another type of the same name starts from zero.
    expect(next.transmitTotals('archive', 'remotedatapost')).toEqual({ bytes: 0, errors: 0 });
  });
});
