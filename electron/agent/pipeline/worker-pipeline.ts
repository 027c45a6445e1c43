/**
 * The pipeline as a receiver's worker thread runs it: the same transforms (built from their
 * configuration), the same outbox encoding and the same one-transaction commit of records and
 * progress as Pipeline.submit, through the worker's own SQLite connections (WAL allows it). Only
 * counts and reports go back to the main thread, which keeps serving the API meanwhile.
 */
import type { AgentRecord } from '../../../shared/records/record.js';
import { openKpiDatabase } from '../kpi/kpi-database.js';
import { RecordHistory } from '../kpi/record-history.js';
import { AgentStore, type CommitProgress, type OutboxEntry, OutboxFullError } from '../store/agent-store.js';
import { type RecordTransform, createTransform } from '../transforms/index.js';
import { type WorkerCommit, type WorkerPlan, applyStages, limitsOf, outboxEntries } from './pipeline.js';

export type WorkerOutcome = { committed: WorkerCommit } | { full: { transmit: string; bytes: number } };

export class WorkerPipeline {
  private store: AgentStore | undefined;
  private history: { file: string; history: RecordHistory; close: () => void } | undefined;
  private readonly transforms = new Map<string, RecordTransform | undefined>();
  private clockMicros = 0n;

  commit(plan: WorkerPlan, records: AgentRecord[], progress: CommitProgress): WorkerOutcome {
    const stages = plan.transforms.flatMap(({ name, config }) => {
      const transform = this.transform(config);
      return transform ? [{ name, transform }] : [];
    });
    const { records: current, reports } = applyStages(stages, records);
    const entries = outboxEntries(plan.stream, plan.routes, current);
    try {
      this.storeFor(plan.storeFile).commit(plan.receiver, plan.stream, entries, progress, limitsOf(plan.routes));
    } catch (cause) {
      if (cause instanceof OutboxFullError) return { full: { transmit: cause.transmit, bytes: cause.bytes } };
      throw cause;
    }
    const historyError = plan.history && current.length > 0 ? this.remember(plan.history, BigInt(plan.nowMicros), current, entries) : undefined;
    return {
      committed: {
        historyError,
        records: current.length,
        reports,
        queued: entries.map((entry) => ({ transmit: entry.transmit, bytes: entry.payload.length, records: entry.records })),
        tapped: plan.returnRecords ? current : undefined,
      },
    };
  }

  close(): void {
    this.store?.close();
    this.history?.close();
  }

  private transform(config: WorkerPlan['transforms'][number]['config']): RecordTransform | undefined {
    const key = JSON.stringify(config);
    if (!this.transforms.has(key)) {
      // Shared by every receiver through every saved configuration: drop transforms long gone.
      if (this.transforms.size >= 1000) this.transforms.clear();
      this.transforms.set(key, createTransform(config));
    }
    return this.transforms.get(key);
  }

  private storeFor(file: string): AgentStore {
    if (this.store?.file !== file) {
      this.store?.close();
      this.store = new AgentStore(file);
    }
    return this.store;
  }

  /** The KPI history is a cache of delivered data: a failure here never stops the data path. */
  private remember(options: NonNullable<WorkerPlan['history']>, nowMicros: bigint, records: AgentRecord[], entries: readonly OutboxEntry[]): string | undefined {
    try {
      if (this.history?.file !== options.file) {
        this.history?.close();
        const db = openKpiDatabase(options.file);
        // Received now by the main thread's clock (the plan carries it).
        const clock = { nowMicros: () => this.clockMicros };
        this.history = { file: options.file, history: new RecordHistory(db, { clock, retentionMs: options.retentionMs, maxRecords: options.maxRecords }), close: () => db.close() };
      }
      this.clockMicros = nowMicros;
      // The upload bodies of the first upload transmit hold exactly these records: keep those.
      const upload = entries.find((entry) => entry.format === 'upload');
      const encoded = upload ? entries.filter((entry) => entry.transmit === upload.transmit) : [];
      if (encoded.length > 0)
        this.history.history.rememberEncoded(encoded.map((entry) => ({ asset: entry.asset, stream_type: entry.stream_type, payload: entry.payload, count: entry.records, first: entry.first!, last: entry.last! })));
      else this.history.history.remember(records);
      return undefined;
    } catch (cause) {
      return (cause as Error).message;
    }
  }
}
