import { openKpiDatabase } from '../kpi/kpi-database.js';
import { RecordHistory } from '../kpi/record-history.js';
import { AgentStore } from '../store/agent-store.js';
import type { CommitTargets, HistoryTarget } from './batch-committer.js';

/**
 * The databases a worker thread commits to: its own connections to the agent's store and the KPI
 * history (WAL lets them write next to the main thread's), opened on first use and kept.
 */
export class WorkerCommitTargets implements CommitTargets {
  private agentStore: AgentStore | undefined;
  private kpi: { file: string; history: RecordHistory; close: () => void } | undefined;

  store(file: string): AgentStore {
    if (this.agentStore?.file !== file) {
      this.agentStore?.close();
      this.agentStore = new AgentStore(file);
    }
    return this.agentStore;
  }

  history(target: HistoryTarget): RecordHistory {
    if (this.kpi?.file !== target.file) {
      this.kpi?.close();
      const db = openKpiDatabase(target.file);
      // Records carry the time they were received (the main thread's clock, in the plan's request);
      // pruning goes by this thread's clock.
      const history = new RecordHistory(db, {
        clock: { nowMicros: () => BigInt(Date.now()) * 1000n },
        retentionMs: target.retentionMs,
        maxRecords: target.maxRecords,
      });
      this.kpi = { file: target.file, history, close: () => db.close() };
    }
    return this.kpi.history;
  }

  close(): void {
    this.agentStore?.close();
    this.kpi?.close();
  }
}
