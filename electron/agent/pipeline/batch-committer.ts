/**
 * The one commit path of every receiver: transforms (in configuration order, where filter_stream
 * selects the stream) → the outbox codec of each transmit whose filter_stream selects it → one
 * SQLite transaction with the outbox rows and the source's progress → the KPI history. The main
 * thread runs it for SQL and OPC UA batches (Pipeline.submit), a parse worker for file chunks, each
 * through its own connections (WAL allows it), from the same plan and the same registry. Pure of
 * markers and logs: what happened comes back as data, which the main thread's Pipeline reports.
 */
import type { AgentRecord } from '../../../shared/records/record.js';
import type { CommitProgress, OutboxCodec, RecordTransform } from '../components/contract.js';
import type { ComponentRegistry } from '../components/registry.js';
import type { EncodedHistoryBatch, RecordHistory } from '../kpi/record-history.js';
import { type AgentStore, type OutboxEntry, OutboxFullError } from '../store/agent-store.js';
import { digestRecords } from '../components/quality-digest.js';
import type { CommitOutcome, CommitPlan, CommitResult, HistoryTarget, StageReport } from '../components/commit-plan.js';
import type { EncodedCommit, PreparedPlan } from '../components/chunk-fast-path.js';

export type { EncodedCommit, PreparedPlan } from '../components/chunk-fast-path.js';

export type { CommitOutcome, CommitPlan, CommitResult, HistoryTarget, StageReport } from '../components/commit-plan.js';

/**
 * Runs transforms over one batch, in order, stopping when no record is left. A failing transform
 * must not lose data: the records pass on unchanged, and the report says so.
 */
export function applyStages(
  stages: readonly { name: string; transform: RecordTransform }[],
  records: AgentRecord[],
): { records: AgentRecord[]; reports: StageReport[] } {
  let current = records;
  const reports: StageReport[] = [];
  for (const stage of stages) {
    if (current.length === 0) break;
    try {
      const result = stage.transform.apply(current);
      reports.push({ stage: stage.name, problems: result.problems });
      current = result.records;
    } catch (cause) {
      reports.push({ stage: stage.name, problems: [], failed: (cause as Error).message });
    }
  }
  return { records: current, reports };
}

/**
 * Plans prepared and kept: the parse threads serve every file receiver, so more than the streams a
 * thread meets between two configurations (a plan is a few small objects).
 */
const PREPARED_PLANS = 1024;

/** The databases a committer writes: the main thread's own, or a worker's connections. */
export interface CommitTargets {
  store(file: string): AgentStore;
  history(target: HistoryTarget): RecordHistory;
}

type HistoryEntry = { transmit: string; codec: OutboxCodec; batch: EncodedHistoryBatch };

/** A batch's outbox rows, and the same payloads as the KPI history keeps them. */
interface OutboxRows {
  entries: OutboxEntry[];
  batches: HistoryEntry[];
}

function outboxRows(plan: CommitPlan, encoded: EncodedCommit): OutboxRows {
  const entries: OutboxEntry[] = [];
  const batches: HistoryEntry[] = [];
  for (const route of encoded.routes) {
    for (const batch of route.batches) {
      entries.push({
        transmit: route.transmit,
        asset: plan.stream.asset,
        stream_type: plan.stream.stream_type,
        format: route.codec.format,
        records: batch.records,
        payload: batch.payload,
      });
      batches.push({
        transmit: route.transmit,
        codec: route.codec,
        batch: {
          ...batch,
          format: route.codec.format,
          asset: plan.stream.asset,
          stream_type: plan.stream.stream_type,
        },
      });
    }
  }
  return { entries, batches };
}

export class BatchCommitter {
  private readonly prepared = new Map<string, PreparedPlan>();

  constructor(
    private readonly registry: ComponentRegistry,
    private readonly targets: CommitTargets,
  ) {}

  /**
   * Transforms, encodes and commits one batch with its source's progress. Synchronous and atomic.
   */
  commit(
    plan: CommitPlan,
    records: AgentRecord[],
    progress: CommitProgress,
    nowMicros: bigint,
  ): CommitResult {
    return this.commitEncoded(
      plan,
      this.encode(this.prepare(plan), plan, records),
      progress,
      nowMicros,
    );
  }

  /**
   * Commits a batch already transformed and encoded for each of the plan's transmits, as commit()
   * would have made it (the fused path of file chunks, fused-upload.ts): the same transaction, the
   * same KPI history, the same outcome.
   */
  commitEncoded(
    plan: CommitPlan,
    encoded: EncodedCommit,
    progress: CommitProgress,
    nowMicros: bigint,
  ): CommitResult {
    const prepared = this.prepare(plan);
    const rows = outboxRows(plan, encoded);
    try {
      this.targets
        .store(plan.storeFile)
        .commit(plan.receiver, plan.stream, rows.entries, progress, prepared.limits, {
          records: encoded.read,
          lastTimestamp: encoded.lastTimestamp,
        });
    } catch (cause) {
      if (cause instanceof OutboxFullError)
        return { full: { transmit: cause.transmit, bytes: cause.bytes } };
      throw cause;
    }
    return { committed: this.outcome(plan, encoded, rows, nowMicros) };
  }

  /**
   * commit() for batches of several streams of one receiver read at one moment (the values of an
   * OPC UA publish, one batch per machine): one transaction for all of them, all or none. Returns
   * each batch's outcome, or `full` when an outbox would pass its limit (nothing was committed:
   * the caller commits them one by one, so that only the streams of that transmit wait).
   */
  commitAll(
    items: readonly { plan: CommitPlan; records: AgentRecord[]; progress: CommitProgress }[],
    nowMicros: bigint,
  ): CommitOutcome[] | { full: { transmit: string; bytes: number } } {
    if (items.length === 0) return [];
    if (new Set(items.map(({ plan }) => plan.storeFile)).size > 1)
      throw new Error('commitAll takes batches of one database');
    const limits = new Map<string, number>();
    const encoded = items.map(({ plan, records, progress }) => {
      const prepared = this.prepare(plan);
      for (const [transmit, limit] of prepared.limits) limits.set(transmit, limit);
      const batch = this.encode(prepared, plan, records);
      return { plan, progress, batch, rows: outboxRows(plan, batch) };
    });
    try {
      this.targets.store(items[0]!.plan.storeFile).commitAll(
        encoded.map(({ plan, progress, rows, batch }) => ({
          receiver: plan.receiver,
          stream: plan.stream,
          entries: rows.entries,
          progress,
          read: { records: batch.read, lastTimestamp: batch.lastTimestamp },
        })),
        limits,
      );
    } catch (cause) {
      if (cause instanceof OutboxFullError)
        return { full: { transmit: cause.transmit, bytes: cause.bytes } };
      throw cause;
    }
    return this.historyTogether(items[0]!.plan.history, () =>
      encoded.map(({ plan, batch, rows }) => this.outcome(plan, batch, rows, nowMicros)),
    );
  }

  /**
   * Runs `work` (the outcomes of batches committed together) with their KPI history writes in one
   * transaction. The history is a cache: when that transaction cannot be had, each batch is kept on
   * its own; when it fails at its end, the outcomes say so.
   */
  private historyTogether(
    target: HistoryTarget | undefined,
    work: () => CommitOutcome[],
  ): CommitOutcome[] {
    if (!target) return work();
    let history: RecordHistory;
    try {
      history = this.targets.history(target);
    } catch {
      return work(); // each batch reports why
    }
    let outcomes: CommitOutcome[] | undefined;
    try {
      return history.together(() => (outcomes = work()));
    } catch (cause) {
      if (!outcomes) return work();
      for (const outcome of outcomes)
        if (outcome.records > 0) outcome.historyError ??= (cause as Error).message;
      return outcomes;
    }
  }

  /** Transforms and encodes one batch for each transmit of its plan. */
  private encode(prepared: PreparedPlan, plan: CommitPlan, records: AgentRecord[]): EncodedCommit {
    const { records: current, reports } = applyStages(prepared.stages, records);
    const routes = prepared.routes.map((route) => ({
      transmit: route.transmit,
      codec: route.codec,
      batches: route.codec.encode(current, route.options),
    }));
    return {
      read: records.length,
      records: current.length,
      lastTimestamp: (current[current.length - 1] ?? records[records.length - 1])?.timestamp,
      reports,
      routes,
      tapped: plan.returnRecords ? current : undefined,
      history: current,
      quality: plan.quality ? digestRecords(plan.quality, current) : undefined,
    };
  }

  /** After the commit: the KPI history, and what the main thread reports. */
  private outcome(
    plan: CommitPlan,
    encoded: EncodedCommit,
    rows: OutboxRows,
    nowMicros: bigint,
  ): CommitOutcome {
    const historyError =
      plan.history && encoded.records > 0
        ? this.remember(plan.history, nowMicros, encoded.history, rows.batches)
        : undefined;
    return {
      historyError,
      records: encoded.records,
      read: encoded.read,
      lastTimestamp: encoded.lastTimestamp,
      reports: encoded.reports,
      queued: rows.entries.map((entry) => ({
        transmit: entry.transmit,
        bytes: entry.payload.length,
        records: entry.records,
      })),
      tapped: encoded.tapped,
      ...(encoded.quality ? { quality: encoded.quality } : {}),
    };
  }

  /** The plan's transforms built and codecs looked up (once per plan id). */
  prepare(plan: CommitPlan): PreparedPlan {
    let prepared = this.prepared.get(plan.id);
    if (prepared) return prepared;
    prepared = {
      stages: plan.transforms.flatMap(({ name, config }) => {
        const transform = this.registry.createTransform(config);
        return transform ? [{ name, transform }] : [];
      }),
      routes: plan.routes.map((route) => ({
        transmit: route.transmit,
        codec: this.registry.outbox(route.type),
        options: route.options,
      })),
      limits: new Map(plan.routes.map((route) => [route.transmit, route.maxBufferBytes])),
    };
    if (this.prepared.size >= PREPARED_PLANS)
      this.prepared.delete(this.prepared.keys().next().value!);
    this.prepared.set(plan.id, prepared);
    return prepared;
  }

  /** The KPI history is a cache of delivered data: a failure here never stops the data path. */
  private remember(
    target: HistoryTarget,
    nowMicros: bigint,
    records: readonly AgentRecord[],
    batches: readonly HistoryEntry[],
  ): string | undefined {
    try {
      const history = this.targets.history(target);
      const received = Number(nowMicros / 1000n);
      // The payloads of the first transmit whose codec the history keeps hold exactly these
      // records.
      const kept = batches.find((entry) => entry.codec.keptByHistory);
      if (kept)
        history.rememberEncoded(
          batches.filter((entry) => entry.transmit === kept.transmit).map((entry) => entry.batch),
          received,
        );
      else history.remember(records, received);
      return undefined;
    } catch (cause) {
      return (cause as Error).message;
    }
  }
}
