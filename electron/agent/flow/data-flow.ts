import type { FlowHistory } from '../../../shared/api/history.js';
import type { Logger } from '../logging/logger.js';
import { TransmitStatsBoard } from './transmit-stats.js';
import type { AgentStore } from '../store/agent-store.js';
import { FlowHistoryStore } from '../store/flow-history-store.js';
import type { Clock } from '../time/clock.js';
import { FlowRecorder } from './flow-recorder.js';
import { type StreamFlow, StreamFlowBoard } from './stream-flow.js';
import { QualityWatch } from '../quality/quality-watch.js';
import { QualityStore } from '../store/quality-store.js';
import { type Expectation, KEPT_GAPS, expectedInterval, gapsOfMinutes } from '../quality/arrival-gaps.js';

const HISTORY_REREAD_MS = 10 * 60_000;

export interface DataFlowOptions {
  clock: Clock;
  /** The history database (state/flow-history.db). */
  historyFile: string;
  /** The outbox, for the backlog written to the history each minute. */
  store: AgentStore;
  logger: Logger;
}

/**
 * What the agent knows about its data flow: per-stream counters (fed by the pipeline per commit),
 * per-transmit deliveries (fed by the transmits per batch), and the per-minute history of both.
 * Started and stopped with the agent process (the runtime's init and dispose), not with the
 * services: the history has a point for each minute the agent ran.
 */
export class DataFlow {
  readonly streams: StreamFlowBoard;
  readonly transmits = new TransmitStatsBoard();
  /** The data-quality watch; its findings are kept in the history database too. */
  readonly quality: QualityWatch;
  private readonly qualityStore: QualityStore;
  private readonly recorder: FlowRecorder;
  private readonly historyStore: FlowHistoryStore;
  /** Gaps of each stream's per-minute history (what is known after a restart), read again every 10 minutes. */
  private readonly historyGaps = new Map<string, { gaps: number[]; readAt: number }>();

  constructor(options: DataFlowOptions) {
    this.streams = new StreamFlowBoard(options.clock);
    this.qualityStore = new QualityStore(options.historyFile);
    this.quality = new QualityWatch({ clock: options.clock, logger: options.logger.child('quality'), store: this.qualityStore });
    this.historyStore = new FlowHistoryStore(options.historyFile);
    this.recorder = new FlowRecorder({
      store: this.historyStore,
      flow: this.streams,
      transmits: this.transmits,
      backlog: (transmit) => {
        try {
          return options.store.backlog(transmit).records;
        } catch {
          return undefined;
        }
      },
      logger: options.logger,
    });
  }

  start(): void {
    this.recorder.start();
  }

  /** Writes the current minute to the history and closes it. */
  stop(): void {
    this.recorder.stop();
    this.quality.stop();
    this.qualityStore.close();
  }

  /** GET /v1/history: the last `minutes` minutes. */
  history(minutes: number): FlowHistory {
    const history = this.recorder.history(minutes);
    const findings = this.quality.history(Date.parse(history.start));
    const iso = (ms: number) => new Date(ms).toISOString();
    history.quality = findings.map((f) => ({ asset: f.asset, stream_type: f.stream_type, check: f.check_name as FlowHistory['quality'][number]['check'], field: f.field, since: iso(f.since), until: f.until === null ? null : iso(f.until), detail: f.detail }));
    return history;
  }

  /**
   * The interval a stream is judged by (usual-interval.ts): its configured `expected_every_seconds`,
   * else learned from its arrivals, else from its history; undefined when nothing says yet.
   */
  expected(receiver: string, stream: { asset: string; stream_type: string }, configuredSeconds: number | undefined): Expectation | undefined {
    return expectedInterval(configuredSeconds, this.streams.gaps(receiver, stream), () => {
      const key = `${receiver}\0${stream.asset}\0${stream.stream_type}`;
      const now = this.streams.nowMs();
      const known = this.historyGaps.get(key);
      if (known && now - known.readAt < HISTORY_REREAD_MS) return known.gaps;
      let gaps: number[];
      try {
        gaps = gapsOfMinutes(this.historyStore.recentMinutes(receiver, stream.asset, stream.stream_type, KEPT_GAPS + 1));
      } catch {
        gaps = []; // a history that cannot be read teaches nothing
      }
      this.historyGaps.set(key, { gaps, readAt: now });
      return gaps;
    });
  }

  /** Every stream that read something since the agent started (GET /metrics). */
  streamFlows(): StreamFlow[] {
    return [...this.streams.all()];
  }
}
