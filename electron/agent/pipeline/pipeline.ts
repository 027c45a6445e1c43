import type { Transform } from '../../../shared/config/schema.js';
import type { AgentRecord } from '../../../shared/records/record.js';
import { filterSelects, streamId } from '../../../shared/config/streams.js';
import type { Logger } from '../logging/logger.js';
import type { MarkerReporter, StreamKey } from '../markers/marker-store.js';
import { type AgentStore, type CommitProgress, type OutboxEntry, OutboxFullError } from '../store/agent-store.js';
import { type OutboxFormat, encodeBatches } from '../store/outbox-codec.js';

/** What the pipeline needs of a transform (electron/agent/transforms implements it). */
export interface RecordTransformLike {
  apply(records: AgentRecord[]): { records: AgentRecord[]; problems: { level: 'warning' | 'error'; message: string }[] };
}

export interface TransformStage {
  name: string;
  filter: readonly string[];
  /** Undefined for a transform type this build cannot run: records pass through unchanged. */
  transform?: RecordTransformLike;
  /** The configuration entry: a receiver's worker thread builds the same transform from it. */
  config: Transform;
  markers: MarkerReporter;
  logger: Logger;
}

export interface TransmitRoute {
  name: string;
  filter: readonly string[];
  /** Outbox limit of this transmit (max_buffer_mb). */
  maxBufferBytes: number;
  /** How its outbox batches are stored (outbox-codec.ts). */
  format: OutboxFormat;
  /** Records per stored batch at most (upload batches are one request each). */
  batchRecords: number;
  markers: MarkerReporter;
  logger: Logger;
}

/** The outbox of a transmit is full: the receiver keeps its position and tries again later. */
export class BufferFullError extends Error {}

const WARN_AT = 0.8;
const MB = 1024 * 1024;

/** What one transform stage made of one batch: problems to report, or why it failed. */
export interface StageReport {
  stage: string;
  problems: { level: 'warning' | 'error'; message: string }[];
  /** The transform threw: the records passed on unchanged. */
  failed?: string;
}

/**
 * Runs transforms over one batch, in order, stopping when no record is left. Pure (no markers, no
 * logs), so that a receiver's worker thread runs exactly what the main thread runs.
 */
export function applyStages(stages: readonly { name: string; transform: RecordTransformLike }[], records: AgentRecord[]): { records: AgentRecord[]; reports: StageReport[] } {
  let current = records;
  const reports: StageReport[] = [];
  for (const stage of stages) {
    if (current.length === 0) break;
    try {
      const result = stage.transform.apply(current);
      reports.push({ stage: stage.name, problems: result.problems });
      current = result.records;
    } catch (cause) {
      // A failing transform must not lose data: the records pass on unchanged, loudly marked.
      reports.push({ stage: stage.name, problems: [], failed: (cause as Error).message });
    }
  }
  return { records: current, reports };
}

/** The outbox entries of one batch of records for each transmit, encoded in its format. */
export function outboxEntries(stream: StreamKey, routes: readonly { transmit: string; format: OutboxFormat; batchRecords: number }[], records: readonly AgentRecord[]): OutboxEntry[] {
  return routes.flatMap((route) =>
    encodeBatches(route.format, records, route.batchRecords).map(({ payload, records: count, first, last }) => ({
      transmit: route.transmit,
      asset: stream.asset,
      stream_type: stream.stream_type,
      format: route.format,
      records: count,
      payload,
      first,
      last,
    })),
  );
}

/** Outbox limits by transmit, for AgentStore.commit. */
export function limitsOf(routes: readonly { transmit: string; maxBufferBytes: number }[]): Map<string, number> {
  return new Map(routes.map((route) => [route.transmit, route.maxBufferBytes]));
}

/** The KPI history a worker thread can keep itself (it opens the same database). */
export interface WorkerHistory {
  file: string;
  retentionMs: number;
  maxRecords: number;
}

/**
 * Sees every committed batch after its transforms (e.g. the KPI history keeps recent records). A tap
 * with `worker` is run by a receiver's worker thread itself when the records are committed there.
 */
export type RecordTap = ((receiver: string, stream: StreamKey, records: readonly AgentRecord[]) => void) & { worker?: WorkerHistory };

/** Everything a receiver's worker thread needs to run the pipeline for one stream by itself. */
export interface WorkerPlan {
  storeFile: string;
  receiver: string;
  stream: StreamKey;
  transforms: { name: string; config: Transform }[];
  /** The transmits that select the stream, with their outbox limits. */
  routes: { transmit: string; format: OutboxFormat; batchRecords: number; maxBufferBytes: number }[];
  history?: WorkerHistory;
  /** Some tap runs only on the main thread: the worker sends the committed records back. */
  returnRecords: boolean;
  /** The main thread's clock (epoch microseconds, as text): capture time and history time. */
  nowMicros: string;
}

/** What a worker committed for one plan. */
export interface WorkerCommit {
  /** Records after transforms. */
  records: number;
  reports: StageReport[];
  queued: { transmit: string; bytes: number; records: number }[];
  /** The committed records, when the plan asked for them. */
  tapped?: AgentRecord[];
  /** Keeping the records for KPI evaluation failed (they are committed and will be sent anyway). */
  historyError?: string;
}

/**
 * Receivers → transforms (in list order, where filter_stream selects the stream) → the outbox of each
 * transmit whose filter_stream selects it. `submit` commits the records and the source progress in
 * one transaction, so what a receiver has read is either queued or will be read again. File
 * receivers run the same steps in their worker thread (`workerPlan`, `afterWorkerCommit`).
 */
export class Pipeline {
  private readonly listeners = new Set<(transmit: string) => void>();
  private readonly unrouted = new Set<string>();
  private historyFailed = false;

  constructor(
    private readonly store: AgentStore,
    private readonly stages: readonly TransformStage[],
    private readonly routes: readonly TransmitRoute[],
    private readonly logger: Logger,
    private readonly markers: MarkerReporter,
    private readonly taps: ReadonlySet<RecordTap> = new Set(),
  ) {}

  /** Called by a receiver with what it read and how far. Synchronous and atomic. */
  submit(receiver: string, stream: StreamKey, records: AgentRecord[], progress: CommitProgress): void {
    const stages = this.stagesFor(stream).filter((stage): stage is TransformStage & { transform: RecordTransformLike } => stage.transform !== undefined);
    const { records: current, reports } = applyStages(stages, records);
    this.report(stream, reports);
    const routes = this.routesFor(stream);
    const entries = outboxEntries(stream, routes.map((route) => ({ transmit: route.name, format: route.format, batchRecords: route.batchRecords })), current);
    try {
      this.store.commit(receiver, stream, entries, progress, limitsOf(routes.map((route) => ({ transmit: route.name, maxBufferBytes: route.maxBufferBytes }))));
    } catch (cause) {
      if (cause instanceof OutboxFullError) this.refuse(routes.find((r) => r.name === cause.transmit)!, stream);
      throw cause;
    }
    this.afterCommit(receiver, stream, current.length, [...new Set(entries.map((e) => e.transmit))], current);
  }

  /** The plan a worker thread follows to commit records of this stream itself. */
  workerPlan(receiver: string, stream: StreamKey, nowMicros: bigint): WorkerPlan {
    const taps = [...this.taps];
    return {
      storeFile: this.store.file,
      receiver,
      stream,
      transforms: this.stagesFor(stream).filter((stage) => stage.transform).map((stage) => ({ name: stage.name, config: stage.config })),
      routes: this.routesFor(stream).map((route) => ({ transmit: route.name, format: route.format, batchRecords: route.batchRecords, maxBufferBytes: route.maxBufferBytes })),
      history: taps.find((tap) => tap.worker)?.worker,
      returnRecords: taps.some((tap) => !tap.worker),
      nowMicros: String(nowMicros),
    };
  }

  /** A worker committed records of a stream: markers, logs, outbox accounting, taps, transmits. */
  afterWorkerCommit(receiver: string, stream: StreamKey, commit: WorkerCommit): void {
    this.report(stream, commit.reports);
    for (const queued of commit.queued) this.store.noteQueued(queued.transmit, queued.bytes);
    if (commit.historyError !== undefined && !this.historyFailed) this.logger.error(`Recent records could not be kept for KPI evaluation: ${commit.historyError}`);
    this.historyFailed = commit.historyError !== undefined;
    this.afterCommit(receiver, stream, commit.records, [...new Set(commit.queued.filter((q) => q.records > 0).map((q) => q.transmit))], commit.tapped, true);
  }

  /** A worker found an outbox full and committed nothing: mark it and stop the reading. */
  refuseFromWorker(stream: StreamKey, transmit: string): never {
    this.refuse(this.routes.find((r) => r.name === transmit)!, stream);
  }

  /** Transmits subscribe to learn that records were queued for them. */
  onQueued(listener: (transmit: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private stagesFor(stream: StreamKey): TransformStage[] {
    const id = streamId(stream.asset, stream.stream_type);
    return this.stages.filter((stage) => filterSelects(stage.filter, id));
  }

  private routesFor(stream: StreamKey): TransmitRoute[] {
    const id = streamId(stream.asset, stream.stream_type);
    return this.routes.filter((route) => filterSelects(route.filter, id));
  }

  private afterCommit(receiver: string, stream: StreamKey, count: number, queuedFor: readonly string[], records: readonly AgentRecord[] | undefined, tappedInWorker = false): void {
    const id = streamId(stream.asset, stream.stream_type);
    if (count > 0 && this.routesFor(stream).length === 0 && !this.unrouted.has(id)) {
      this.unrouted.add(id);
      const message = `No transmit's filter_stream selects ${id}: its records are read but not sent anywhere.`;
      this.logger.warn(message);
      this.markers.raise([stream], 'warning', 'no_transmit', message);
    }
    for (const route of this.routesFor(stream)) this.markFilling(route, stream);
    if (records && records.length > 0) {
      for (const tap of this.taps) {
        if (tappedInWorker && tap.worker) continue;
        try {
          tap(receiver, stream, records);
        } catch (cause) {
          this.logger.error('A record tap failed (the records are committed and will be sent)', cause);
        }
      }
    }
    for (const transmit of queuedFor) for (const listener of this.listeners) listener(transmit);
  }

  /**
   * Back-pressure: refuses records that would push an outbox past its limit (the receiver keeps its
   * position, nothing is dropped).
   */
  private refuse(route: TransmitRoute, stream: StreamKey): never {
    const message = `The outbox of ${route.name} is full (${this.usage(route, this.store.backlog(route.name).bytes)}): reading pauses until uploads catch up. Nothing is dropped.`;
    route.markers.raise([stream], 'error', 'buffer_full', message);
    route.logger.warn(message);
    throw new BufferFullError(message);
  }

  /** Warns from 80 % of the limit on; clears the warnings once below. */
  private markFilling(route: TransmitRoute, stream: StreamKey): void {
    if (this.store.queuedBytesOf(route.name) > route.maxBufferBytes * WARN_AT) {
      route.markers.raise([stream], 'warning', 'buffer_nearly_full', `The outbox of ${route.name} is filling up (${this.usage(route)}); at the limit reading pauses. Check the connection to the destination.`);
    } else {
      route.markers.clear('buffer_nearly_full', [stream]);
      route.markers.clear('buffer_full', [stream]);
    }
  }

  private usage(route: TransmitRoute, queued = this.store.queuedBytesOf(route.name)): string {
    return `${(queued / MB).toFixed(1)} of ${(route.maxBufferBytes / MB).toFixed(0)} MiB`;
  }

  private report(stream: StreamKey, reports: readonly StageReport[]): void {
    for (const report of reports) {
      const stage = this.stages.find((s) => s.name === report.stage);
      if (!stage) continue;
      if (report.failed !== undefined) {
        const message = `The transform failed (${report.failed}); records passed on unchanged.`;
        stage.markers.raise([stream], 'error', 'transform_failed', message);
        stage.logger.error(message);
        continue;
      }
      if (report.problems.length === 0) stage.markers.clear('transform_problem', [stream]);
      for (const problem of report.problems) {
        stage.markers.raise([stream], problem.level, 'transform_problem', problem.message);
        stage.logger.warn(`${streamId(stream.asset, stream.stream_type)}: ${problem.message}`);
      }
    }
  }
}
