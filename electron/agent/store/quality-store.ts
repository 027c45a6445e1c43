import { openSideDatabase } from './side-database.js';

/** A finding of the data-quality watch as kept: open while `until` is null. */
export interface StoredFinding {
  id: number;
  asset: string;
  stream_type: string;
  check_name: string;
  field: string | null;
  since: number;
  until: number | null;
  detail: string;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS quality_findings (
  id INTEGER PRIMARY KEY, asset TEXT NOT NULL, stream_type TEXT NOT NULL, check_name TEXT NOT NULL, field TEXT,
  since INTEGER NOT NULL, until INTEGER, detail TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS quality_findings_by_until ON quality_findings (until);
`;

/**
 * The findings of the data-quality watch (in state/flow-history.db, beside the per-minute flow):
 * the open ones survive a restart, the closed ones stay 24 hours for the history charts. Written
 * when a finding opens or closes, which is rare; a problem here never stops the data path.
 */
export class QualityStore {
  private db: ReturnType<typeof openSideDatabase> | undefined;

  constructor(readonly file: string) {}

  private handle() {
    this.db ??= openSideDatabase(this.file, SCHEMA, 2000);
    return this.db;
  }

  open(finding: Omit<StoredFinding, 'id' | 'until'>): number {
    const result = this.handle()
      .prepare('INSERT INTO quality_findings (asset, stream_type, check_name, field, since, until, detail) VALUES (@asset, @stream_type, @check_name, @field, @since, NULL, @detail)')
      .run(finding);
    return Number(result.lastInsertRowid);
  }

  /** Closes a finding (until: epoch ms) or, with until null, only updates its words. */
  update(id: number, until: number | null, detail: string): void {
    this.handle().prepare('UPDATE quality_findings SET until = ?, detail = ? WHERE id = ?').run(until, detail, id);
  }

  openFindings(): StoredFinding[] {
    return this.handle().prepare('SELECT * FROM quality_findings WHERE until IS NULL ORDER BY id').all() as StoredFinding[];
  }

  /** Findings open at some time from `fromMs` on (open ones included), oldest first. */
  since(fromMs: number): StoredFinding[] {
    return this.handle().prepare('SELECT * FROM quality_findings WHERE until IS NULL OR until >= ? ORDER BY since, id').all(fromMs) as StoredFinding[];
  }

  /** Forgets findings closed before `beforeMs`. */
  prune(beforeMs: number): void {
    this.handle().prepare('DELETE FROM quality_findings WHERE until IS NOT NULL AND until < ?').run(beforeMs);
  }

  close(): void {
    if (this.db?.open) this.db.close();
    this.db = undefined;
  }
}
