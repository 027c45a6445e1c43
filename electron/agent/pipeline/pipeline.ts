import { randomUUID } from 'node:crypto';
import { say } from '../../../shared/config/message.js';
import type { Transform } from '../../../shared/config/schema.js';
import type { AgentRecord } from '../../../shared/records/record.js';
import type { BackfillProgress } from '../../../shared/api/resources.js';
import { filterSelects, streamId } from '../../../shared/config/streams.js';
import { BufferFullError, type CommitProgress, type StreamKey } from '../components/contract.js';

export { BufferFullError };
import type { ComponentRegistry } from '../components/registry.js';
import type { RecordHistory } from '../kpi/record-history.js';
import type { Logger } from '../logging/logger.js';
import type { MarkerReporter } from '../markers/marker-store.js';
import type { AgentStore } from '../store/agent-store.js';
import type { Clock } from '../time/clock.js';
import type { StreamFlowBoard } from '../flow/stream-flow.js';
import type { QualityWatch } from '../quality/quality-watch.js';
import type { QualitySettings } from '../../../shared/config/data-quality-rules.js';
import { CommitCoalescer, type ReceiverBatch } from './commit-coalescer.js';
import { Listeners } from '../lifecycle/index.js';
import { BatchCommitter, type CommitOutcome, type CommitPlan, type CommitResult, type HistoryTarget, type StageReport } from './batch-committer.js';

export interface TransformStage {
  name: string;
  filter: readonly string[];
  /** The configuration entry: the commit path builds the transform from it (registry). */
  config: Transform;
  markers: MarkerReporter;
  logger: Logger;
}

export interface TransmitRoute {
  name: string;
  /** transmit_type: the registry's outbox codec of this type encodes the records. */
  type: string;
  filter: readonly string[];
  /** The codec's options from the transmit's configuration (plain data). */
  options: unknown;
  /** Outbox limit of this transmit (max_buffer_mb). */
  maxBufferBytes: number;
  markers: MarkerReporter;
  logger: Logger;
}

/** Sees every committed batch after its transforms (tests, future observers). */
export type RecordTap = (
  receiver: string,
  stream: StreamKey,
  records: readonly AgentRecord[],
) => void;

export interface PipelineOptions {
  store: AgentStore;
  registry: ComponentRegistry;
  clock: Clock;
  logger: Logger;
  /** Markers of the pipeline itself (a stream no transmit selects). */
  markers: MarkerReporter;
  taps?: ReadonlySet<RecordTap>;
  /**
   * The KPI history: where worker threads keep records, and this thread's writer of it (opened on
   * use).
   */
  history?: { target: HistoryTarget; writer: () => RecordHistory };
  /** Per-stream counters (records read, newest record, file being read): fed once per commit. */
  flow?: StreamFlowBoard;
  /** The data-quality watch: its settings go with each plan, each commit's digest to it. */
  quality?: QualityWatch;
}

const WARN_AT = 0.8;

/**
 * The settings a commit plan carries: none when no check needs the records (the gap check needs
 * only arrivals).
 */
function digestWanted(settings: QualitySettings | undefined): QualitySettings | undefined {
  if (!settings) return undefined;
  return settings.stuck ||
    Object.keys(settings.range).length > 0 ||
    settings.clock ||
    settings.schema
    ? settings
    : undefined;
}
const MB = 1024 * 1024;

/**
 * Receivers → transforms (in list order, where filter_stream selects the stream) → the outbox of
 * each transmit whose filter_stream selects it. Every commit takes one path (BatchCommitter):
 * records and the source's progress in one transaction, so what a receiver has read is either
 * queued or will be read again. SQL and OPC UA receivers commit here (`submit`); file receivers in
 * their parse workers following `plan`, then hand the result to `afterCommit`. A save that keeps a
 * receiver running reconfigures the pipeline in place: its next batch goes through the new
 * transforms and transmits.
 */
export class Pipeline {
  private readonly queued = new Listeners<[transmit: string]>();
  private readonly unrouted = new Set<string>();
  private readonly committer: BatchCommitter;
  private readonly plans = new Map<string, CommitPlan>();
  /** Plan ids name this pipeline and its configuration, so that workers never mix two. */
  private readonly instance = randomUUID();
  private generation = 0;
  private stages: readonly TransformStage[] = [];
  private routes: readonly TransmitRoute[] = [];
  private historyFailed = false;
  private readonly coalescer = new CommitCoalescer((batches) => this.commitTogether(batches));

  constructor(private readonly options: PipelineOptions) {
    this.committer = new BatchCommitter(options.registry, {
      store: () => options.store,
      history: () => {
        if (!options.history) throw new Error('no KPI history on this pipeline');
        return options.history.writer();
      },
    });
  }

  /** Takes the transforms and transmits of a (new) configuration; plans are built anew. */
  configure(stages: readonly TransformStage[], routes: readonly TransmitRoute[]): void {
    this.stages = stages;
    this.routes = routes;
    this.generation += 1;
    this.plans.clear();
    this.unrouted.clear();
    this.options.markers.clear('no_transmit');
  }

  /**
   * The plan of one stream of one receiver for the current configuration (built once, then kept).
   */
  plan(receiver: string, stream: StreamKey): CommitPlan {
    const key = `${receiver}\0${streamId(stream.asset, stream.stream_type)}`;
    let plan = this.plans.get(key);
    if (!plan) {
      const { registry, store, history, taps, quality } = this.options;
      plan = {
        id: `${this.instance}:${this.generation}:${key}`,
        storeFile: store.file,
        receiver,
        stream,
        transforms: this.stagesFor(stream)
          .filter((stage) => registry.has('Transform', stage.config.transform_type))
          .map((stage) => ({ name: stage.name, config: stage.config })),
        routes: this.routesFor(stream).map((route) => ({
          transmit: route.name,
          type: route.type,
          options: route.options,
          maxBufferBytes: route.maxBufferBytes,
        })),
        history: history?.target,
        returnRecords: (taps?.size ?? 0) > 0,
        quality: digestWanted(quality?.settingsFor(stream)),
      };
      this.plans.set(key, plan);
    }
    return plan;
  }

  /** Called by a receiver on this thread with what it read and how far. Synchronous and atomic. */
  submit(
    receiver: string,
    stream: StreamKey,
    records: AgentRecord[],
    progress: CommitProgress,
  ): void {
    this.afterCommit(
      receiver,
      stream,
      this.committer.commit(
        this.plan(receiver, stream),
        records,
        progress,
        this.options.clock.nowMicros(),
      ),
    );
  }

  /**
   * submit() for batches of several streams read at one moment (the values of an OPC UA publish):
   * one transaction for all of them. When an outbox is full, or the batches together cannot be
   * stored, they are submitted one by one (a BufferFullError or store error then names the streams
   * concerned). Returns, per batch in order, undefined when it was committed, else why not.
   */
  submitAll(
    receiver: string,
    batches: readonly { stream: StreamKey; records: AgentRecord[]; progress: CommitProgress }[],
  ): (Error | undefined)[] {
    return this.commitTogether(batches.map((batch) => ({ receiver, ...batch })));
  }

  /**
   * submitAll() for polling receivers (Modbus): the batches wait up to 100 ms for those of other
   * receivers and are committed with them in one transaction (CommitCoalescer). Resolves, per batch
   * in order, to undefined when it was committed, else why not.
   */
  submitSoon(
    receiver: string,
    batches: readonly { stream: StreamKey; records: AgentRecord[]; progress: CommitProgress }[],
  ): Promise<(Error | undefined)[]> {
    return this.coalescer.submit(batches.map((batch) => ({ receiver, ...batch })));
  }

  /** Commits what waits in submitSoon() now; later submissions are committed at once. */
  dispose(): void {
    this.coalescer.dispose();
  }

  private commitTogether(batches: readonly ReceiverBatch[]): (Error | undefined)[] {
    let outcomes: CommitOutcome[] | undefined;
    try {
      const committed = this.committer.commitAll(
        batches.map((batch) => ({
          plan: this.plan(batch.receiver, batch.stream),
          records: batch.records,
          progress: batch.progress,
        })),
        this.options.clock.nowMicros(),
      );
      if (Array.isArray(committed)) outcomes = committed;
    } catch {
      // Stored one by one below, where each stream learns its own error.
    }
    return batches.map((batch, index) => {
      try {
        const { receiver, stream } = batch;
        if (outcomes) this.afterCommit(receiver, stream, { committed: outcomes[index]! });
        else this.submit(batch.receiver, batch.stream, batch.records, batch.progress);
        return undefined;
      } catch (cause) {
        return cause as Error;
      }
    });
  }

  /**
   * A commit of this stream finished, here or in a parse worker: markers, logs, outbox accounting,
   * taps, and the transmits woken. When an outbox was full (nothing was committed), marks it and
   * throws BufferFullError: the receiver keeps its position and tries again later.
   */
  afterCommit(receiver: string, stream: StreamKey, result: CommitResult): void {
    if ('full' in result) this.refuse(stream, result.full.transmit);
    const commit = result.committed;
    const { store, logger, markers, taps, flow } = this.options;
    flow?.committed(receiver, stream, commit.read, commit.lastTimestamp);
    this.options.quality?.committed(stream, commit.read, commit.quality);
    this.report(stream, commit.reports);
    for (const queued of commit.queued) store.noteQueued(queued.transmit, queued.bytes);
    if (commit.historyError !== undefined && !this.historyFailed)
      logger.error(`Recent records could not be kept for KPI evaluation: ${commit.historyError}`);
    this.historyFailed = commit.historyError !== undefined;
    const id = streamId(stream.asset, stream.stream_type);
    const routes = this.routesFor(stream);
    if (commit.records > 0 && routes.length === 0 && !this.unrouted.has(id)) {
      this.unrouted.add(id);
      const message = say('pipeline.no_transmit', "No transmit's filter_stream selects {stream}: its records are read but not sent anywhere.", { stream: id });
      logger.warn(message.text);
      markers.raise([stream], 'warning', 'no_transmit', message);
    }
    for (const route of routes) this.markFilling(route, stream);
    if (commit.tapped && commit.tapped.length > 0) {
      for (const tap of taps ?? []) {
        try {
          tap(receiver, stream, commit.tapped);
        } catch (cause) {
          logger.error('A record tap failed (the records are committed and will be sent)', cause);
        }
      }
    }
    const queuedFor = new Set(commit.queued.filter((q) => q.records > 0).map((q) => q.transmit));
    for (const transmit of queuedFor) this.queued.emit(transmit);
  }

  /**
   * A file receiver reads `path` of this stream: committed up to `bytesRead` of `size` bytes (once
   * per chunk); null once it is done with the file (GET /v1/streams stats.reading).
   */
  reading(
    receiver: string,
    stream: StreamKey,
    path: string,
    progress: { bytesRead: number; size: number } | null,
  ): void {
    this.options.flow?.reading(receiver, stream, path, progress);
  }

  /**
   * An OPC UA receiver reads history for this stream; null once done (GET /v1/streams
   * stats.backfill).
   */
  backfilling(receiver: string, stream: StreamKey, progress: BackfillProgress | null): void {
    this.options.flow?.backfilling(receiver, stream, progress);
  }

  /**
   * Of the records just committed for this stream, `count` were read from history (data-flow
   * panel).
   */
  backfilled(receiver: string, stream: StreamKey, count: number): void {
    this.options.flow?.backfilled(receiver, stream, count);
  }

  /** Transmits subscribe to learn that records were queued for them. */
  onQueued(listener: (transmit: string) => void): () => void {
    return this.queued.subscribe(listener);
  }

  private stagesFor(stream: StreamKey): TransformStage[] {
    const id = streamId(stream.asset, stream.stream_type);
    return this.stages.filter((stage) => filterSelects(stage.filter, id));
  }

  private routesFor(stream: StreamKey): TransmitRoute[] {
    const id = streamId(stream.asset, stream.stream_type);
    return this.routes.filter((route) => filterSelects(route.filter, id));
  }

  /**
   * Back-pressure: refuses records that would push an outbox past its limit (the receiver keeps its
   * position, nothing is dropped).
   */
  private refuse(stream: StreamKey, transmit: string): never {
    const route = this.routes.find((r) => r.name === transmit);
    const store = this.options.store;
    if (!route)
      throw new BufferFullError(
        `The outbox of ${transmit} is full: reading pauses until uploads catch up. Nothing is dropped.`,
      );
    const said = say('pipeline.outbox_full', 'The outbox of {transmit} is full ({used} of {limit} MiB): reading pauses until uploads catch up. Nothing is dropped.', { transmit: route.name, ...this.usage(route, store.backlog(route.name).bytes) });
    route.markers.raise([stream], 'error', 'buffer_full', said);
    route.logger.warn(said.text);
    throw new BufferFullError(said.text);
  }

  /** Warns from 80 % of the limit on; clears the warnings once below. */
  private markFilling(route: TransmitRoute, stream: StreamKey): void {
    if (this.options.store.queuedBytesOf(route.name) > route.maxBufferBytes * WARN_AT) {
      const said = say('pipeline.outbox_filling', 'The outbox of {transmit} is filling up ({used} of {limit} MiB); at the limit reading pauses. Check the connection to the destination.', { transmit: route.name, ...this.usage(route) });
      route.markers.raise([stream], 'warning', 'buffer_nearly_full', said);
    } else {
      route.markers.clear('buffer_nearly_full', [stream]);
      route.markers.clear('buffer_full', [stream]);
    }
  }

  private usage(
    route: TransmitRoute,
    queued = this.options.store.queuedBytesOf(route.name),
  ): { used: number; limit: number } {
    const used = Math.round((queued / MB) * 10) / 10;
    return { used, limit: Math.round(route.maxBufferBytes / MB) };
  }

  private report(stream: StreamKey, reports: readonly StageReport[]): void {
    for (const report of reports) {
      const stage = this.stages.find((s) => s.name === report.stage);
      if (!stage) continue;
      if (report.failed !== undefined) {
        const said = say('pipeline.transform_failed', 'The transform failed ({error}); records passed on unchanged.', { error: report.failed });
        stage.markers.raise([stream], 'error', 'transform_failed', said);
        stage.logger.error(said.text);
        continue;
      }
      if (report.problems.length === 0) stage.markers.clear('transform_problem', [stream]);
      for (const problem of report.problems) {
        stage.markers.raise([stream], problem.level, 'transform_problem', problem.said);
        stage.logger.warn(`${streamId(stream.asset, stream.stream_type)}: ${problem.message}`);
      }
    }
  }
}
