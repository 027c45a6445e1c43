import type { AgentRecord } from '../../../shared/records/record.js';
import { filterSelects, streamId } from '../../../shared/config/streams.js';
import type { Logger } from '../logging/logger.js';
import type { MarkerReporter, StreamKey } from '../markers/marker-store.js';
import type { AgentStore, CommitProgress, OutboxEntry } from '../store/agent-store.js';

/** What the pipeline needs of a transform (electron/agent/transforms implements it). */
export interface RecordTransformLike {
  apply(records: AgentRecord[]): { records: AgentRecord[]; problems: { level: 'warning' | 'error'; message: string }[] };
}

export interface TransformStage {
  name: string;
  filter: readonly string[];
  /** Undefined for a transform type this build cannot run: records pass through unchanged. */
  transform?: RecordTransformLike;
  markers: MarkerReporter;
  logger: Logger;
}

export interface TransmitRoute {
  name: string;
  filter: readonly string[];
  /** Outbox limit of this transmit (max_buffer_mb). */
  maxBufferBytes: number;
  markers: MarkerReporter;
  logger: Logger;
}

/** The outbox of a transmit is full: the receiver keeps its position and tries again later. */
export class BufferFullError extends Error {}

const WARN_AT = 0.8;
const MB = 1024 * 1024;

/**
 * Receivers → transforms (in list order, where filter_stream selects the stream) → the outbox of each
 * transmit whose filter_stream selects it. `submit` commits the records and the source progress in
 * one transaction, so what a receiver has read is either queued or will be read again.
 */
/** Sees every committed batch after its transforms (e.g. the KPI history keeps recent records). */
export type RecordTap = (receiver: string, stream: StreamKey, records: readonly AgentRecord[]) => void;

export class Pipeline {
  private readonly listeners = new Set<(transmit: string) => void>();
  private readonly unrouted = new Set<string>();

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
    const id = streamId(stream.asset, stream.stream_type);
    let current = records;
    for (const stage of this.stages) {
      if (current.length === 0) break;
      if (!stage.transform || !filterSelects(stage.filter, id)) continue;
      current = this.runStage(stage, stream, current);
    }
    const entries: OutboxEntry[] = this.routes
      .filter((route) => filterSelects(route.filter, id))
      .map((route) => ({ transmit: route.name, asset: stream.asset, stream_type: stream.stream_type, records: current }));
    this.checkSpace(stream, entries, Buffer.byteLength(JSON.stringify(current)));
    if (entries.length === 0 && current.length > 0 && !this.unrouted.has(id)) {
      this.unrouted.add(id);
      const message = `No transmit's filter_stream selects ${id}: its records are read but not sent anywhere.`;
      this.logger.warn(message);
      this.markers.raise([stream], 'warning', 'no_transmit', message);
    }
    this.store.commit(receiver, stream, entries, progress);
    for (const tap of this.taps) {
      try {
        if (current.length > 0) tap(receiver, stream, current);
      } catch (cause) {
        this.logger.error('A record tap failed (the records are committed and will be sent)', cause);
      }
    }
    for (const entry of entries) if (entry.records.length > 0) for (const listener of this.listeners) listener(entry.transmit);
  }

  /**
   * Back-pressure: refuses records that would push an outbox past its limit (the receiver keeps its
   * position, nothing is dropped) and warns from 80 % on.
   */
  private checkSpace(stream: StreamKey, entries: readonly OutboxEntry[], bytes: number): void {
    for (const entry of entries) {
      const route = this.routes.find((r) => r.name === entry.transmit)!;
      const queued = this.store.queuedBytesOf(route.name);
      const usage = `${(queued / MB).toFixed(1)} of ${(route.maxBufferBytes / MB).toFixed(0)} MiB`;
      if (queued + bytes > route.maxBufferBytes) {
        const message = `The outbox of ${route.name} is full (${usage}): reading pauses until uploads catch up. Nothing is dropped.`;
        route.markers.raise([stream], 'error', 'buffer_full', message);
        route.logger.warn(message);
        throw new BufferFullError(message);
      }
      if (queued + bytes > route.maxBufferBytes * WARN_AT) {
        route.markers.raise([stream], 'warning', 'buffer_nearly_full', `The outbox of ${route.name} is filling up (${usage}); at the limit reading pauses. Check the connection to the destination.`);
      } else {
        route.markers.clear('buffer_nearly_full', [stream]);
        route.markers.clear('buffer_full', [stream]);
      }
    }
  }

  /** Transmits subscribe to learn that records were queued for them. */
  onQueued(listener: (transmit: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private runStage(stage: TransformStage, stream: StreamKey, records: AgentRecord[]): AgentRecord[] {
    try {
      const result = stage.transform!.apply(records);
      if (result.problems.length === 0) stage.markers.clear('transform_problem', [stream]);
      for (const problem of result.problems) {
        stage.markers.raise([stream], problem.level, 'transform_problem', problem.message);
        stage.logger.warn(`${streamId(stream.asset, stream.stream_type)}: ${problem.message}`);
      }
      return result.records;
    } catch (cause) {
      // A failing transform must not lose data: the records pass on unchanged, loudly marked.
      const message = `The transform failed (${(cause as Error).message}); records passed on unchanged.`;
      stage.markers.raise([stream], 'error', 'transform_failed', message);
      stage.logger.error(message, cause);
      return records;
    }
  }
}
