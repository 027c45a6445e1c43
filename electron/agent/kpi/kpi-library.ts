import type Database from 'better-sqlite3';
import type { KpiLibraryEntry } from '../../../shared/kpi/api.js';
import type { KpiKind } from '../../../shared/kpi/schema.js';

interface Row {
  name: string;
  kind: KpiKind;
  definition: string;
  last_modified: string;
}

function toEntry(row: Row): KpiLibraryEntry {
  const definition = JSON.parse(row.definition) as Record<string, unknown>;
  return {
    name: row.name,
    display_name: typeof definition.display_name === 'string' ? definition.display_name : row.name,
    kind: row.kind,
    unit: typeof definition.unit === 'string' ? definition.unit : null,
    last_modified: row.last_modified,
    definition,
  };
}

/** The KPI library: one row per KPI name. Every change is one transaction (atomic, durable). */
export class KpiLibrary {
  private readonly statements;
  private readonly replaceTransaction: (previous: string | undefined, name: string, kind: KpiKind, definition: string, lastModified: string) => void;

  constructor(private readonly db: Database.Database) {
    this.statements = {
      list: db.prepare('SELECT name, kind, definition, last_modified FROM kpi_library ORDER BY name'),
      get: db.prepare('SELECT name, kind, definition, last_modified FROM kpi_library WHERE name = ?'),
      put: db.prepare(`INSERT INTO kpi_library (name, kind, definition, last_modified) VALUES (?, ?, ?, ?)
        ON CONFLICT (name) DO UPDATE SET kind = excluded.kind, definition = excluded.definition, last_modified = excluded.last_modified`),
      delete: db.prepare('DELETE FROM kpi_library WHERE name = ?'),
    };
    this.replaceTransaction = db.transaction((previous, name, kind, definition, lastModified) => {
      if (previous !== undefined && previous !== name) this.statements.delete.run(previous);
      this.statements.put.run(name, kind, definition, lastModified);
    });
  }

  list(): KpiLibraryEntry[] {
    return (this.statements.list.all() as Row[]).map(toEntry);
  }

  get(name: string): KpiLibraryEntry | undefined {
    const row = this.statements.get.get(name) as Row | undefined;
    return row ? toEntry(row) : undefined;
  }

  /** Stores a definition under its name; `previous` (a rename) is removed in the same transaction. */
  put(previous: string | undefined, name: string, kind: KpiKind, definition: unknown, lastModified: string): KpiLibraryEntry {
    this.durably(() => this.replaceTransaction(previous, name, kind, JSON.stringify(definition), lastModified));
    return this.get(name)!;
  }

  delete(name: string): boolean {
    return this.durably(() => this.statements.delete.run(name).changes > 0);
  }

  /** A library change survives a power cut: fsync on commit, unlike the history's inserts. */
  private durably<T>(change: () => T): T {
    this.db.pragma('synchronous = FULL');
    try {
      return change();
    } finally {
      this.db.pragma('synchronous = NORMAL');
    }
  }
}
