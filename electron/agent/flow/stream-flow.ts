import type { BackfillProgress, FileReading, StreamStats } from '../../../shared/api/resources.js';
import type { StreamKey } from '../components/contract.js';
import type { Clock } from '../time/clock.js';
import { MinuteCounts } from './minute-counts.js';
import { ArrivalGaps } from '../quality/arrival-gaps.js';

/** The part of a stream's `stats` that only memory knows, or that memory knows until the store is read. */
export type LiveStreamStats = Omit<StreamStats, 'transmits' | 'expected_every_seconds' | 'expected_from'>;

/** What the agent knows about the flow of one stream of one receiver since it started. */
export interface StreamFlow {
  receiver: string;
  asset: string;
  stream_type: string;
  recordsRead: number;
  /** Epoch ms of the last commit with records. */
  lastRecordAt: number | undefined;
  lastRecordTimestamp: string | undefined;
  readonly minutes: MinuteCounts;
  /** Files of this stream being read now, by path (two parse threads may read two files at once). */
  readonly reading: Map<string, FileReading>;
  /** An OPC UA history backfill under way. */
  backfill?: BackfillProgress;
  /** Of `minutes`, the records read from history (OPC UA backfill). */
  backfilledMinutes?: MinuteCounts;
  /** Gaps between arrivals, for the stream's usual interval. */
  readonly arrivals: ArrivalGaps;
  /** The last commit was a chunk of a file still being read. */
  inFile: boolean;
}

const keyOf = (receiver: string, stream: StreamKey) => `${receiver}\0${stream.asset}\0${stream.stream_type}`;

/**
 * Per-stream counters (records read, the newest record, the rate, the file being read), fed by the
 * pipeline once per committed batch or file chunk on the main thread: the cost is a few additions
 * per file chunk (up to 512 KiB), nothing per record. Read by GET /v1/streams, GET /metrics and the history.
 */
export class StreamFlowBoard {
  private readonly flows = new Map<string, StreamFlow>();
  readonly startedMs: number;

  constructor(private readonly clock: Clock) {
    this.startedMs = this.nowMs();
  }

  nowMs(): number {
    return Number(this.clock.nowMicros() / 1000n);
  }

  /** A batch of `count` records of this stream was committed; `lastTimestamp` is its last record's. */
  committed(receiver: string, stream: StreamKey, count: number, lastTimestamp: string | undefined): void {
    if (count === 0) return;
    const flow = this.flow(receiver, stream);
    const now = this.nowMs();
    flow.recordsRead += count;
    flow.lastRecordAt = now;
    if (lastTimestamp !== undefined) flow.lastRecordTimestamp = lastTimestamp;
    flow.minutes.add(count, now);
    flow.arrivals.arrived(now, flow.inFile);
    flow.inFile = flow.reading.size > 0;
  }

  /** A file of this stream is being read up to `bytesRead` of `size`; null: done with that file. */
  reading(receiver: string, stream: StreamKey, path: string, progress: { bytesRead: number; size: number } | null): void {
    const flow = this.flow(receiver, stream);
    if (progress) flow.reading.set(path, { path, bytes_read: progress.bytesRead, size: progress.size });
    else {
      flow.reading.delete(path);
      if (flow.reading.size === 0) flow.inFile = false;
    }
  }

  /** Recent gaps between this stream's arrivals since the agent started (ms). */
  gaps(receiver: string, stream: StreamKey): readonly number[] {
    return this.flows.get(keyOf(receiver, stream))?.arrivals.gaps ?? [];
  }

  /** `count` of the records just committed were read from history, not live. */
  backfilled(receiver: string, stream: StreamKey, count: number): void {
    const flow = this.flow(receiver, stream);
    (flow.backfilledMinutes ??= new MinuteCounts()).add(count, this.nowMs());
  }

  /** An OPC UA receiver reads the history of this stream (null: done). */
  backfilling(receiver: string, stream: StreamKey, progress: BackfillProgress | null): void {
    this.flow(receiver, stream).backfill = progress ?? undefined;
  }

  /** `stats` of GET /v1/streams for one stream (zeros when nothing was read since the start). */
  stats(receiver: string, stream: StreamKey): LiveStreamStats {
    const flow = this.flows.get(keyOf(receiver, stream));
    if (!flow) return { records_read: 0, last_record_at: null, last_record_timestamp: null, records_per_minute: 0, reading: null, backfill: null };
    return {
      records_read: flow.recordsRead,
      last_record_at: flow.lastRecordAt === undefined ? null : new Date(flow.lastRecordAt).toISOString(),
      last_record_timestamp: flow.lastRecordTimestamp ?? null,
      records_per_minute: flow.minutes.perMinute(this.nowMs(), this.startedMs),
      reading: flow.reading.values().next().value ?? null,
      ...(flow.backfilledMinutes ? { backfilled_per_minute: flow.backfilledMinutes.perMinute(this.nowMs(), this.startedMs) } : {}),
      backfill: flow.backfill ?? null,
    };
  }

  /** Every stream that read something or is reading (metrics, history). */
  all(): IterableIterator<StreamFlow> {
    return this.flows.values();
  }

  private flow(receiver: string, stream: StreamKey): StreamFlow {
    const key = keyOf(receiver, stream);
    let flow = this.flows.get(key);
    if (!flow) {
      flow = { receiver, asset: stream.asset, stream_type: stream.stream_type, recordsRead: 0, lastRecordAt: undefined, lastRecordTimestamp: undefined, minutes: new MinuteCounts(), reading: new Map(), arrivals: new ArrivalGaps(), inFile: false };
      this.flows.set(key, flow);
    }
    return flow;
  }
}
