import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentRecord } from '../../../shared/records/record.js';
import { tempDirectory } from '../../testing/test-host.js';
import { builtInComponents } from '../catalog/built-in.js';
import { openKpiDatabase } from '../kpi/kpi-database.js';
import { RecordHistory } from '../kpi/record-history.js';
import { LogFile } from '../logging/log-file.js';
import { Logger, Redactor } from '../logging/logger.js';
import { MarkerStore } from '../markers/marker-store.js';
import { AgentStore } from '../store/agent-store.js';
import { SystemClock } from '../time/clock.js';
import { BufferFullError, Pipeline } from './pipeline.js';

// Pipeline.submitAll: the batches of several machines read at one moment (an OPC UA publish) are
// stored together; a full outbox holds back only the machines whose transmit it is.
const stores: { close(): void }[] = [];
afterEach(() => stores.splice(0).forEach((s) => s.close()));

function setup(limitOfB: number) {
  const directory = tempDirectory();
  const store = new AgentStore(path.join(directory, 'agent.db'));
  stores.push(store);
  const clock = new SystemClock();
  const logger = new Logger(new LogFile(path.join(directory, 'agent_core.log'), { maxBytes: 1e6, keep: 1 }), new Redactor(), clock, 'test');
  const markers = new MarkerStore(clock);
  const kpiDatabase = openKpiDatabase(path.join(directory, 'kpi.db'));
  stores.push(kpiDatabase);
  const target = { file: path.join(directory, 'kpi.db'), retentionMs: 86_400_000, maxRecords: 1_000_000 };
  const registry = builtInComponents();
  // As the agent runs it: the history reads batches it kept in a transmit's format with the registry.
  const history = new RecordHistory(kpiDatabase, { clock, retentionMs: target.retentionMs, maxRecords: target.maxRecords, decode: (format, payload) => registry.decode(format, payload) });
  const pipeline = new Pipeline({ store, registry, clock, logger, markers: markers.reporter('pipeline', 'Receiver'), history: { target, writer: () => history } });
  const route = (name: string, filter: string, maxBufferBytes: number) => ({ name, type: 'csv', filter: [filter], options: {}, maxBufferBytes, markers: markers.reporter(name, 'Transmit'), logger });
  pipeline.configure([], [route('a', 'M1:*', 1e9), route('b', 'M2:*', limitOfB)]);
  return { store, pipeline, markers, history };
}

const record = (asset: string, n: number): AgentRecord => ({ asset, stream_type: 'process', timestamp: `2026-03-01T10:00:0${n}.000000Z`, capturetime: '2026-03-01T10:00:09.000000Z', fieldvalues: { temp: n }, record_id: `${asset}-${n}` });
const M1 = { asset: 'M1', stream_type: 'process' };
const M2 = { asset: 'M2', stream_type: 'process' };
const batches = (n: number) => [
  { stream: M1, records: [record('M1', n)], progress: { state: { last: String(n) } } },
  { stream: M2, records: [record('M2', n)], progress: { state: { last: String(n) } } },
];

describe('Pipeline.submitAll', () => {
  it('stores every machine\'s batch with its progress, and keeps their records for KPI evaluation', () => {
    const { store, pipeline, history } = setup(1e9);
    expect(pipeline.submitAll('plc', batches(1))).toEqual([undefined, undefined]);
    expect(store.backlog('a').records).toBe(1);
    expect(store.backlog('b').records).toBe(1);
    expect(store.streamState('plc', M1, 'last')).toBe('1');
    expect(store.streamState('plc', M2, 'last')).toBe('1');
    const day = (n: number) => Date.UTC(2026, 2, n) * 1000;
    expect(history.recordsOf('M1', day(1), day(2), 10).map((r) => r.fieldvalues)).toEqual([{ temp: 1 }]);
    expect(history.recordsOf('M2', day(1), day(2), 10).map((r) => r.fieldvalues)).toEqual([{ temp: 1 }]);
  });

  it('when one transmit\'s outbox is full, stores the other machines and holds back only those of that transmit', () => {
    const { store, pipeline, markers } = setup(1);
    expect(pipeline.submitAll('plc', batches(1))).toEqual([undefined, undefined]); // an empty outbox takes any batch
    const results = pipeline.submitAll('plc', batches(2));
    expect(results[0]).toBeUndefined();
    expect(results[1]).toBeInstanceOf(BufferFullError);
    expect(store.backlog('a').records).toBe(2);
    expect(store.backlog('b').records).toBe(1);
    expect(store.streamState('plc', M1, 'last')).toBe('2');
    // M2 keeps its position: its values are tried again, nothing is lost.
    expect(store.streamState('plc', M2, 'last')).toBe('1');
    expect(markers.forStream('M2', 'process').map((m) => m.category)).toContain('buffer_full');
  });
});

// Pipeline.submitSoon: polling receivers (one per Modbus device) that answer within the window are
// stored in one transaction, each with its own progress and its own errors.
describe('Pipeline.submitSoon', () => {
  const one = (n: number, stream: typeof M1) => [{ stream, records: [record(stream.asset, n)], progress: { state: { last: String(n) } } }];

  it('commits the batches of several receivers that arrive within the window in one transaction', async () => {
    const { store, pipeline } = setup(1e9);
    const transactions: number[] = [];
    const commitAll = store.commitAll.bind(store);
    store.commitAll = (items, limits) => {
      transactions.push(items.length);
      return commitAll(items, limits);
    };
    const first = pipeline.submitSoon('press_1', one(1, M1));
    const second = pipeline.submitSoon('press_2', one(1, M2));
    expect(store.backlog('a').records).toBe(0); // waiting for the window
    expect(await Promise.all([first, second])).toEqual([[undefined], [undefined]]);
    expect(transactions).toEqual([2]);
    expect(store.backlog('a').records).toBe(1);
    expect(store.backlog('b').records).toBe(1);
    expect(store.streamState('press_1', M1, 'last')).toBe('1');
    expect(store.streamState('press_2', M2, 'last')).toBe('1');
  });

  it('gives each receiver its own error: a full outbox holds back only the receiver whose transmit it is', async () => {
    const { store, pipeline } = setup(1);
    await Promise.all([pipeline.submitSoon('press_1', one(1, M1)), pipeline.submitSoon('press_2', one(1, M2))]);
    const [first, second] = await Promise.all([pipeline.submitSoon('press_1', one(2, M1)), pipeline.submitSoon('press_2', one(2, M2))]);
    expect(first).toEqual([undefined]);
    expect(second[0]).toBeInstanceOf(BufferFullError);
    expect(store.streamState('press_1', M1, 'last')).toBe('2');
    expect(store.streamState('press_2', M2, 'last')).toBe('1');
  });

  it('stores what waits when the pipeline is disposed, and commits later batches at once', async () => {
    const { store, pipeline } = setup(1e9);
    const waiting = pipeline.submitSoon('press_1', one(1, M1));
    pipeline.dispose();
    expect(store.backlog('a').records).toBe(1);
    expect(await waiting).toEqual([undefined]);
    expect(await pipeline.submitSoon('press_2', one(1, M2))).toEqual([undefined]);
    expect(store.backlog('b').records).toBe(1);
  });
});
