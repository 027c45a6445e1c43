import { type DataValue, HistoryData, HistoryReadRequest, ReadRawModifiedDetails, TimestampsToReturn } from 'node-opcua';
import { isoMicros } from '../../../../shared/records/record.js';
import { type OpenSession, bounded } from './opcua-endpoint.js';
import type { Sample, WatchedNode } from './tag-index.js';
import { chunks } from './tag-index.js';
import { describeStatus, sampleMicros } from './values.js';

/** What the receiver needs from the backfill's surroundings. */
export interface BackfillHost {
  /** Source time (µs) of the last value committed for this reader, or undefined: never read. */
  lastCommitted(stream: number, exportname: string): bigint | undefined;
  /** Commits these values (in time order per tag) like live ones; false while they must wait (outbox full). */
  commit(samples: Sample[]): boolean;
  /** Tags whose history cannot be read, with the server's status; called once per status change. */
  unavailable(problems: ReadonlyMap<WatchedNode, string>): void;
  progress(state: BackfillProgress | undefined): void;
  stopped(): boolean;
}

/** A backfill under way: the time span it reads and the values read so far (stream stats `backfill`). */
export interface BackfillProgress {
  from: string;
  to: string;
  read: number;
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
 * Reads the gap since the last committed value of each tag from the server's history
 * (HistoryRead, ReadRawModifiedDetails, continuation points) and commits it as records, in
 * bounded batches, before the live values held meanwhile. Tags never committed are not read
 * (first start: live only). Returns, per reader, the source time of the last value backfilled,
 * so that held live values at or before it are not recorded twice.
 */
export async function backfillHistory(open: OpenSession, nodes: readonly WatchedNode[], settings: BackfillSettings, host: BackfillHost): Promise<void> {
  const nowMicros = BigInt(Date.now()) * 1000n;
  const floorMicros = nowMicros - BigInt(Math.round(settings.maxHours * 3600e6));
  const starts = new Map<WatchedNode, bigint>();
  for (const node of nodes) {
    const times = node.readers.map((r) => host.lastCommitted(r.stream, r.tag.exportname)).filter((t): t is bigint => t !== undefined);
    if (times.length === 0) continue;
    const earliest = times.reduce((a, b) => (a < b ? a : b));
    starts.set(node, earliest < floorMicros ? floorMicros : earliest);
  }
  if (starts.size === 0) return;
  const from = [...starts.values()].reduce((a, b) => (a < b ? a : b));
  const endTime = new Date(Number(nowMicros / 1000n));
  const progress: BackfillProgress = { from: isoMicros(from), to: isoMicros(nowMicros), read: 0 };
  host.progress(progress);
  const problems = new Map<WatchedNode, string>();
  try {
    for (const chunk of chunks([...starts.keys()], settings.nodesPerCall ?? DEFAULT_NODES_PER_CALL)) {
      // One request per start time: the common case (all tags committed together) is one call per chunk.
      const byStart = new Map<bigint, WatchedNode[]>();
      for (const node of chunk) byStart.set(starts.get(node)!, [...(byStart.get(starts.get(node)!) ?? []), node]);
      for (const [start, group] of byStart) {
        if (host.stopped()) return;
        await readGroup(open, group, start, endTime, settings, host, problems, progress);
      }
    }
  } finally {
    host.unavailable(problems);
    host.progress(undefined);
  }
}

async function readGroup(
  open: OpenSession,
  group: WatchedNode[],
  start: bigint,
  endTime: Date,
  settings: BackfillSettings,
  host: BackfillHost,
  problems: Map<WatchedNode, string>,
  progress: BackfillProgress,
): Promise<void> {
  const details = new ReadRawModifiedDetails({
    isReadModified: false,
    // Milliseconds down: the value at the stored time itself comes again and is recognised.
    startTime: new Date(Number(start / 1000n)),
    endTime,
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
      response = await bounded(open.session.historyRead(request), settings.timeoutMs, `no HistoryRead answer within ${settings.timeoutMs / 1000} s`);
    } catch (cause) {
      // A server without the HistoryRead service answers the whole request with a Bad status.
      const status = /Bad\w+/.exec((cause as Error).message)?.[0];
      if (!status) throw cause;
      for (const { node } of reading) problems.set(node, status);
      return;
    }
    const next: typeof reading = [];
    const samples: Sample[] = [];
    (response.results ?? []).forEach((result, i) => {
      const { node } = reading[i]!;
      const status = describeStatus(result.statusCode);
      if (status.quality === 'bad') {
        problems.set(node, status.name);
        return;
      }
      problems.delete(node);
      const values = result.historyData instanceof HistoryData ? (result.historyData.dataValues ?? []) : [];
      for (const dataValue of values) samples.push(...readersOf(node, dataValue, host));
      progress.read += values.length;
      if (result.continuationPoint && result.continuationPoint.length > 0) next.push({ node, continuationPoint: result.continuationPoint });
    });
    samples.sort((a, b) => (micros(a.dataValue) < micros(b.dataValue) ? -1 : micros(a.dataValue) > micros(b.dataValue) ? 1 : 0));
    // The outbox is full: wait (the values stay in the server's history, not in our memory).
    while (!host.commit(samples) && !host.stopped()) await sleep(WAIT_FULL_MS);
    host.progress(progress);
    reading = next;
    await sleep(THROTTLE_MS);
  }
}

const micros = (dataValue: DataValue) => sampleMicros(dataValue, 0n);

/** The samples of one historical value, for the readers that had not committed it yet. */
function readersOf(node: WatchedNode, dataValue: DataValue, host: BackfillHost): Sample[] {
  const at = micros(dataValue);
  const out: Sample[] = [];
  for (const reader of node.readers) {
    const last = host.lastCommitted(reader.stream, reader.tag.exportname);
    // Never committed: this reader starts live. Older than its last value: it has it already.
    if (last === undefined || at < last) continue;
    out.push({ stream: reader.stream, tag: reader.tag, dataValue });
  }
  return out;
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
