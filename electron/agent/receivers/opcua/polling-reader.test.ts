import { EventEmitter } from 'node:events';
import { DataType, DataValue, StatusCodes } from 'node-opcua';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { OpenSession } from './opcua-endpoint.js';
import { PollingReader } from './polling-reader.js';
import type { ReaderEvents } from './subscription-reader.js';
import { indexTags } from './tag-index.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

/** A session whose Read answers `read` (one value per node asked). */
function fakeSession(read: (count: number) => Promise<DataValue[]>) {
  const client = new EventEmitter();
  const session = Object.assign(new EventEmitter(), { read: vi.fn((items: unknown[]) => read(items.length)) });
  const open = {
    client,
    session,
    endpointUrl: 'opc.tcp://127.0.0.1:4840',
    limits: { maxNodesPerRead: 1000, maxMonitoredItemsPerCall: 1000, maxNodesPerBrowse: 1000 },
    close: async () => undefined,
  } as unknown as OpenSession;
  return { open, client, session };
}

const good = (count: number) =>
  Promise.resolve(Array.from({ length: count }, () => new DataValue({ value: { dataType: DataType.Double, value: 1.5 }, statusCode: StatusCodes.Good })));

function reader(open: OpenSession) {
  const { nodes } = indexTags([[{ node: 'ns=2;s=Speed', exportname: 'speed' }, { node: 'ns=2;s=Temp', exportname: 'temp' }]]);
  const values = vi.fn();
  const events: ReaderEvents = { values, nodeProblems: () => undefined, failed: () => undefined };
  return { reader: new PollingReader(open, nodes, { pollIntervalMs: 1000, timeoutMs: 5000 }, events), values };
}

describe('opcua PollingReader', () => {
  it('reads every node each poll interval until stopped, then leaves no timer or listener behind', async () => {
    const { open, client, session } = fakeSession(good);
    const { reader: polling, values } = reader(open);
    const ended = polling.run();
    await vi.advanceTimersByTimeAsync(0);
    expect(session.read).toHaveBeenCalledOnce();
    expect(values.mock.calls[0]![0]).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(2000);
    expect(session.read).toHaveBeenCalledTimes(3);
    polling.stop();
    expect((await ended).text).toBe('stopped');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(session.read).toHaveBeenCalledTimes(3);
    expect(vi.getTimerCount()).toBe(0);
    expect(client.listenerCount('close') + client.listenerCount('connection_lost') + session.listenerCount('session_closed')).toBe(0);
  });

  it('ends with the reason when a read fails, and reads no more', async () => {
    let reads = 0;
    const { open, session } = fakeSession((count) => (++reads === 2 ? Promise.reject(new Error('BadSessionIdInvalid')) : good(count)));
    const { reader: polling } = reader(open);
    const ended = polling.run();
    await vi.advanceTimersByTimeAsync(1000);
    expect((await ended).text).toBe('reading failed: BadSessionIdInvalid');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(session.read).toHaveBeenCalledTimes(2);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('ends when the connection closes while it waits for the next poll', async () => {
    const { open, client, session } = fakeSession(good);
    const { reader: polling } = reader(open);
    const ended = polling.run();
    await vi.advanceTimersByTimeAsync(500);
    client.emit('close');
    expect((await ended).text).toBe('the connection was closed');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(session.read).toHaveBeenCalledOnce();
    expect(vi.getTimerCount()).toBe(0);
  });
});
