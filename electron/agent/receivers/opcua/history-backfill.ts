import { type DataValue, HistoryData, HistoryReadRequest, ReadRawModifiedDetails, TimestampsToReturn } from 'node-opcua-client';
import { type OpenSession, bounded } from './opcua-endpoint.js';
import type { WatchedNode } from './tag-index.js';
import { chunks } from './tag-index.js';
import { describeStatus, sampleMicros } from './values.js';
import { say } from '../../../../shared/config/message.js';

/** One historical value of a node. */
export interface HistoryValue {
  node: WatchedNode;
  dataValue: DataValue;
  micros: bigint;
}

/** What reading history needs from the gate (backfill-gate.ts). */
export interface HistoryHost {
  /**
   * Stores one response's values (in time order per node) with the progress they make: per node,
   * history was read up to `upTo` (µs), and `done` nodes are read to the end of their window.
   * False while they must wait (outbox full): the same response is offered again.
   */
  take(values: HistoryValue[], upTo: ReadonlyMap<WatchedNode, bigint>, done: readonly WatchedNode[]): boolean;
  /** Nodes whose history cannot be read (status per node); read again on the next backfill. */
  unavailable(node: WatchedNode, status: string): void;
  /** Values read so far (stream stats `backfill.read`). */
  read(count: number): void;
  stopped(): boolean;
}

/** The span of history to read for a node: values after `from` and before `to` (µs). */
export interface Window {
  from: bigint;
  to: bigint;
}

export interface BackfillSettings {
  maxHours: number;
  timeoutMs: number;
  /** Values per node and HistoryRead call (numValuesPerNode). */
  valuesPerNode?: number;
  /** Nodes per HistoryRead call. */
  nodesPerCall?: number;
}

const DEFAULT_VALUES_PER_NODE = 1000;
const DEFAULT_NODES_PER_CALL = 50;
/** Pause between two HistoryRead calls so that publish responses of the live subscription go first. */
const THROTTLE_MS = 5;
const WAIT_FULL_MS = 500;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Reads the history of these nodes, each over its window (HistoryRead, ReadRawModifiedDetails,
 * continuation points), in bounded requests: at most `nodesPerCall` nodes and `valuesPerNode`
 * values each, a pause between requests, and waiting (not reading further) while the outbox is
 * full, so that the live subscription's values keep their latency. Nodes with the same window
 * share requests (the common case: tags committed together, connected together).
 */
export async function readHistory(open: OpenSession, windows: ReadonlyMap<WatchedNode, Window>, settings: BackfillSettings, host: HistoryHost): Promise<void> {
  const byWindow = new Map<string, { window: Window; nodes: WatchedNode[] }>();
  for (const [node, window] of windows) {
    const key = `${window.from}-${window.to}`;
    const group = byWindow.get(key) ?? { window, nodes: [] };
    group.nodes.push(node);
    byWindow.set(key, group);
  }
  for (const { window, nodes } of byWindow.values())
    for (const chunk of chunks(nodes, settings.nodesPerCall ?? DEFAULT_NODES_PER_CALL)) {
      if (host.stopped()) return;
      await readGroup(open, chunk, window, settings, host);
    }
}

async function readGroup(open: OpenSession, group: WatchedNode[], window: Window, settings: BackfillSettings, host: HistoryHost): Promise<void> {
  const details = new ReadRawModifiedDetails({
    isReadModified: false,
    // Milliseconds down and up: the gate keeps only the values strictly inside the window.
    startTime: new Date(Number(window.from / 1000n)),
    endTime: new Date(Number((window.to + 999n) / 1000n)),
    numValuesPerNode: settings.valuesPerNode ?? DEFAULT_VALUES_PER_NODE,
    returnBounds: false,
  });
  let reading = group.map((node) => ({ node, continuationPoint: undefined as Buffer | undefined }));
  while (reading.length > 0) {
    if (host.stopped()) {
      await release(open, reading, details, settings);
      return;
    }
    const request = new HistoryReadRequest({
      historyReadDetails: details,
      timestampsToReturn: TimestampsToReturn.Both,
      releaseContinuationPoints: false,
      nodesToRead: reading.map(({ node, continuationPoint }) => ({ nodeId: node.nodeId, continuationPoint })),
    });
    let response;
    try {
      response = await bounded(open.session.historyRead(request), settings.timeoutMs, say('opcua.no_history_answer', 'no HistoryRead answer within {seconds} s', { seconds: settings.timeoutMs / 1000 }));
    } catch (cause) {
      // A server without the HistoryRead service answers the whole request with a Bad status.
      const status = /Bad\w+/.exec((cause as Error).message)?.[0];
      if (!status) throw cause;
      for (const { node } of reading) host.unavailable(node, status);
      return;
    }
    const next: typeof reading = [];
    const values: HistoryValue[] = [];
    const upTo = new Map<WatchedNode, bigint>();
    const done: WatchedNode[] = [];
    let count = 0;
    (response.results ?? []).forEach((result, i) => {
      const { node } = reading[i]!;
      const status = describeStatus(result.statusCode);
      if (status.quality === 'bad') {
        host.unavailable(node, status.name);
        return;
      }
      const dataValues = result.historyData instanceof HistoryData ? (result.historyData.dataValues ?? []) : [];
      for (const dataValue of dataValues) {
        const micros = sampleMicros(dataValue, 0n);
        values.push({ node, dataValue, micros });
        const before = upTo.get(node);
        if (before === undefined || micros > before) upTo.set(node, micros);
      }
      count += dataValues.length;
      if (result.continuationPoint && result.continuationPoint.length > 0) next.push({ node, continuationPoint: result.continuationPoint });
      else done.push(node);
    });
    values.sort((a, b) => (a.micros < b.micros ? -1 : a.micros > b.micros ? 1 : 0));
    // The outbox is full: wait (the values stay in the server's history, not in our memory).
    while (!host.take(values, upTo, done)) {
      if (host.stopped()) return;
      await sleep(WAIT_FULL_MS);
    }
    host.read(count);
    reading = next;
    await sleep(THROTTLE_MS);
  }
}

async function release(open: OpenSession, reading: { node: WatchedNode; continuationPoint: Buffer | undefined }[], details: ReadRawModifiedDetails, settings: BackfillSettings): Promise<void> {
  const held = reading.filter((r) => r.continuationPoint);
  if (held.length === 0) return;
  const request = new HistoryReadRequest({
    historyReadDetails: details,
    timestampsToReturn: TimestampsToReturn.Both,
    releaseContinuationPoints: true,
    nodesToRead: held.map(({ node, continuationPoint }) => ({ nodeId: node.nodeId, continuationPoint })),
  });
  await bounded(open.session.historyRead(request), settings.timeoutMs).catch(() => undefined);
}
