/**
 * history_backfill against node-opcua's historian (issue 40): a counter changes every 100 ms on
 * the server whatever happens to the agent; after a connection cut, a server restart and a kill -9
 * of the agent, every value of the gap is recorded from the server's history, once, in order of
 * source time; live values flow while the history is read (decision 0040).
 */
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentRecord } from '../../../../shared/records/record.js';
import { startIngestServer } from '../../../ingest/ingest-server.js';
import { waitFor } from '../../../testing/file-plant.js';
import { type Agent, startAgent } from '../../../testing/opcua/opcua-plant.js';
import { OpcuaTestServer } from '../../../testing/opcua/opcua-test-server.js';
import { serveProcess } from '../../../testing/serve-process.js';
import { tempDirectory } from '../../../testing/test-host.js';

const pkiFolder = tempDirectory('opcua-history-pki-');
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const COUNTER = [{ name: 'ns=2;s=Counter', exportname: 'counter' }];

async function historian(): Promise<OpcuaTestServer> {
  const plc = await OpcuaTestServer.start({ pkiFolder, historize: ['Counter'] });
  cleanups.push(() => plc.stop());
  return plc;
}

/**
 * The PLC counts every 100 ms, also while the agent cannot see it; a set on a stopped server is
 * skipped. A timeout chain, not an interval: two values never come closer than 100 ms, also when
 * the test process stalls, so that the server's sampling of the live subscription sees each one.
 */
function counting(plc: OpcuaTestServer) {
  let value = 1000;
  let running = true;
  let timer: NodeJS.Timeout | undefined;
  const tick = () => {
    if (!running) return;
    try {
      plc.set('Counter', value + 1);
      value += 1;
    } catch {
      // The server is down: the PLC's counter does not move either.
    }
    timer = setTimeout(tick, 100);
  };
  timer = setTimeout(tick, 100);
  const stop = () => {
    running = false;
    clearTimeout(timer);
  };
  cleanups.push(async () => stop());
  return { last: () => value, stop };
}

/**
 * Every counter value from the first recorded one to `last`, once each, and in the order of their
 * source times (history of a gap is committed beside the live values that came meanwhile).
 */
function expectEachOnceInOrder(records: readonly AgentRecord[], last: number): void {
  const counted = records.filter((r) => typeof r.fieldvalues.counter === 'number');
  const byTime = [...counted].sort((a, b) => (a.timestamp < b.timestamp ? -1 : a.timestamp > b.timestamp ? 1 : 0));
  const values = byTime.map((r) => r.fieldvalues.counter as number);
  const first = values[0]!;
  expect(values).toEqual(Array.from({ length: last - first + 1 }, (_, i) => first + i));
}

/** A TCP link between agent and server that the test can cut, as a pulled cable or a dead switch would. */
async function cuttableLink(targetPort: number) {
  const sockets = new Set<net.Socket>();
  let up = true;
  const server = net.createServer((socket) => {
    if (!up) return socket.destroy();
    const upstream = net.connect(targetPort, '127.0.0.1');
    for (const s of [socket, upstream]) {
      sockets.add(s);
      s.on('error', () => undefined);
      s.on('close', () => sockets.delete(s));
    }
    socket.pipe(upstream).pipe(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise((resolve) => server.close(resolve)));
  return {
    port: (server.address() as net.AddressInfo).port,
    cut: () => {
      up = false;
      for (const s of sockets) s.destroy();
    },
    restore: () => (up = true),
  };
}

async function backfillingAgent(port: number, dataDirectory?: string): Promise<Agent> {
  const agent = await startAgent({ connection: { host: '127.0.0.1', port }, sampling_interval_ms: 0, history_backfill: true, streams: [{ asset: 'Line_1', stream_type: 'process', opcua_tags: COUNTER }] }, dataDirectory);
  cleanups.push(() => agent.close());
  return agent;
}

/** Every value from the first recorded one to `last` is recorded (from history or live). */
const hasAllTo = (agent: Agent, last: number) => {
  const values = new Set(agent.valuesOf('counter').map((r) => r.fieldvalues.counter as number));
  const first = Math.min(...values);
  return values.size === last - first + 1 && values.has(last);
};

describe('opcua history_backfill (node-opcua historian)', () => {
  it('fills the gap of a connection cut from history: every value once, in order; first start reads live only', async () => {
    const plc = await historian();
    const link = await cuttableLink(plc.port);
    const counter = counting(plc);
    const agent = await backfillingAgent(link.port);
    await waitFor(() => agent.valuesOf('counter').length >= 5, 20_000, 'live values');
    // Nothing stored yet when it first connected: no history was asked for.
    expect(plc.historyReads).toBe(0);
    link.cut();
    await agent.marker('connection_lost');
    const before = agent.records.length;
    await waitFor(() => counter.last() >= (agent.valuesOf('counter').at(-1)!.fieldvalues.counter as number) + 20, 20_000, 'values while cut off');
    expect(agent.records.length).toBe(before);
    const lastBefore = agent.valuesOf('counter').at(-1)!.timestamp;
    plc.historyDelayMs = 4000;
    link.restore();
    // While the (slow) history is read, the stream's stats show the span being read.
    const backfill = await waitFor(async () => {
      const streams = (await agent.server.call('GET', '/v1/streams')).json.response as { stats: { backfill?: { from: string; to: string; read: number } | null } }[];
      return streams[0]?.stats.backfill ?? undefined;
    }, 30_000, 'stats.backfill');
    expect(backfill.from).toBe(lastBefore);
    expect(Date.parse(backfill.to)).toBeGreaterThan(Date.parse(backfill.from));
    expect(backfill.read).toBe(0);
    // Live values flow while the (slow) history is read: a value newer than the gap is recorded
    // before the backfill is over.
    const cutAt = counter.last();
    await waitFor(() => agent.valuesOf('counter').some((r) => (r.fieldvalues.counter as number) > cutAt), 20_000, 'a live value during the backfill');
    const during = (await agent.server.call('GET', '/v1/streams')).json.response as { stats: { backfill?: unknown } }[];
    expect(during[0]!.stats.backfill).not.toBeNull();
    expect(agent.records.length).toBeLessThan(before + 20);
    await waitFor(async () => (await agent.markers('connection_lost')).length === 0, 30_000, 'reconnection');
    counter.stop();
    await waitFor(() => hasAllTo(agent, counter.last()), 30_000, `every value up to ${counter.last()}`);
    expect(plc.historyReads).toBeGreaterThan(0);
    await waitFor(async () => ((await agent.server.call('GET', '/v1/streams')).json.response as { stats: { backfill?: unknown } }[])[0]?.stats.backfill === null, 30_000, 'the backfill over');
    const streams = (await agent.server.call('GET', '/v1/streams')).json.response as { stats: { backfill?: unknown; records_per_minute: number; backfilled_per_minute?: number } }[];
    expect(streams[0]!.stats.backfill).toBeNull();
    // The data-flow panel counts the records of the gap apart from the live ones.
    expect(streams[0]!.stats.backfilled_per_minute).toBeGreaterThan(0);
    expect(streams[0]!.stats.records_per_minute).toBeGreaterThan(streams[0]!.stats.backfilled_per_minute!);
    expectEachOnceInOrder(agent.records, counter.last());
  }, 90_000);

  it('fills the gap around a server restart from the history it kept', async () => {
    const plc = await historian();
    const counter = counting(plc);
    const agent = await backfillingAgent(plc.port);
    await waitFor(() => agent.valuesOf('counter').length >= 5, 20_000, 'live values');
    await plc.stop();
    await agent.marker('connection_lost');
    await plc.restart(1000);
    // The PLC counts on after its restart while the agent has not reconnected yet.
    await waitFor(async () => (await agent.markers('connection_lost')).length === 0, 30_000, 'reconnection');
    counter.stop();
    await waitFor(() => hasAllTo(agent, counter.last()), 30_000, `every value up to ${counter.last()}`);
    expectEachOnceInOrder(agent.records, counter.last());
  }, 90_000);

  it('marks a tag without history once and records its live values', async () => {
    const plc = await historian();
    const dataDirectory = tempDirectory('tributary-opcua-history-');
    const streams = [{ asset: 'Line_1', stream_type: 'process', opcua_tags: [...COUNTER, { name: 'ns=2;s=Double', exportname: 'double' }] }];
    let agent = await startAgent({ connection: { host: '127.0.0.1', port: plc.port }, history_backfill: true, streams }, dataDirectory);
    await waitFor(() => agent.valuesOf('double').length > 0, 20_000, 'a live value of Double');
    await agent.close();
    // Both tags change while the agent is down: the gap of each is asked for; Counter's is read.
    plc.set('Counter', 5001);
    plc.set('Double', 12.5);
    await new Promise((resolve) => setTimeout(resolve, 50));
    plc.set('Counter', 5002);
    plc.set('Double', 13.5);
    agent = await startAgent({ connection: { host: '127.0.0.1', port: plc.port }, history_backfill: true, streams }, dataDirectory);
    cleanups.push(() => agent.close());
    await waitFor(() => agent.valuesOf('counter').some((r) => r.fieldvalues.counter === 5001), 20_000, "Counter's gap from history");
    const marker = await agent.marker('history_unavailable');
    expect(marker.level).toBe('warning');
    expect(marker.message).toContain('double (ns=2;s=Double): BadHistoryOperationUnsupported');
    expect(marker.message).not.toContain('counter');
    plc.set('Double', 77.5);
    await waitFor(() => agent.valuesOf('double').some((r) => r.fieldvalues.double === 77.5), 20_000, 'live values go on');
    expect((await agent.markers('history_unavailable')).length).toBe(1);
  }, 90_000);
});

describe('opcua history_backfill: kill -9 of the agent', () => {
  it('sends every value of the time the agent was dead, with the record_id a live read gives', async () => {
    const plc = await historian();
    const ingest = await startIngestServer({ keys: { 'opcua@tributary.local': 'key' } });
    cleanups.push(() => ingest.close());
    const counter = counting(plc);
    const config = {
      data_receiver: [
        { data_receiver_name: 'plc', protocol: 'opcua', sampling_interval_ms: 0, history_backfill: true, connections: [{ host: '127.0.0.1', port: plc.port, timeout: 5 }], streams: [{ asset: 'Line_1', stream_type: 'process', opcua_tags: COUNTER }] },
      ],
      transforms: [],
      data_transmit: [{ transmit_name: 'cloud', transmit_type: 'remotedatapost', filter_stream: ['*'], base_url: ingest.url, API_key: 'key', API_key_ID: 'opcua@tributary.local', timeout: 5, poll_interval: 1 }],
    };
    const dataDirectory = tempDirectory('tributary-opcua-kill-');
    let agent = await serveProcess(['--data-dir', dataDirectory, '--port', '0']);
    cleanups.push(() => agent.crash());
    expect((await agent.call('POST', '/v1/config', config)).json.success).toBe(true);
    const counters = () => ingest.records().map((r) => (r.fieldvalues as { counter: number | null }).counter).filter((v): v is number => typeof v === 'number');
    await waitFor(() => counters().length >= 10, 30_000, 'live values through the agent');
    await agent.crash();
    const deadFrom = counter.last();
    await waitFor(() => counter.last() >= deadFrom + 30, 20_000, 'the PLC counting while the agent is dead');
    agent = await serveProcess(['--data-dir', dataDirectory, '--port', '0']);
    await waitFor(() => counters().some((v) => v > deadFrom + 40), 60_000, 'live values after the restart');
    counter.stop();
    // Uploads may complete out of order at the ingest server: wait for the whole range around the
    // kill (before it, the gap, and live values after the restart to the last one), then check.
    const first = Math.min(...counters());
    const through = counter.last();
    const expected = through - first + 1;
    await waitFor(() => new Set(counters().filter((v) => v <= through)).size === expected, 30_000, `${expected} distinct values up to ${through}`);
    const distinct = [...new Set(counters())].sort((a, b) => a - b).filter((v) => v <= through);
    expect(distinct).toEqual(Array.from({ length: expected }, (_, i) => first + i));
    // In order: each value's record has a later source time than the value before.
    const timeOf = new Map(ingest.records().map((r) => [(r.fieldvalues as { counter: number }).counter, String(r.timestamp)]));
    const times = distinct.map((v) => timeOf.get(v)!);
    expect([...times].sort()).toEqual(times);
    // A value sent twice (in flight at the kill) carries the same record_id.
    const ids = new Map<number, Set<unknown>>();
    for (const r of ingest.records()) {
      const value = (r.fieldvalues as { counter: number | null }).counter;
      if (typeof value === 'number') ids.set(value, (ids.get(value) ?? new Set()).add(r.record_id));
    }
    expect([...ids.values()].filter((s) => s.size !== 1)).toEqual([]);
  }, 180_000);
});
