import path from 'node:path';
import { formatSpecTimestamp, parseTimestampToMicros } from '../../../shared/api/envelope.js';
import { AgentError } from '../errors/agent-error.js';
import { type Violation, error, say } from '../../../shared/config/violations.js';
import { parseBinSize, type EvaluateRequest, type KpiEvaluation, type KpiLibraryEntry } from '../../../shared/kpi/api.js';
import { evaluateKpi } from '../../../shared/kpi/evaluate.js';
import type { KnownKpiData } from '../../../shared/kpi/known-names.js';
import type { AliasEntry, KpiDefinition, KpiKind } from '../../../shared/kpi/schema.js';
import { validateKpi, type KpiValidationOutcome } from '../../../shared/kpi/validate.js';
import type { AgentRecord } from '../../../shared/records/record.js';
import type { HistoryTarget } from '../components/commit-plan.js';
import { isoFromMicros } from '../time/iso-time.js';
import type { Clock } from '../time/clock.js';
import type { Logger } from '../logging/logger.js';
import { openKpiDatabase } from './kpi-database.js';
import { describeWriteFailure, isDiskFull } from '../disk/storage-health.js';
import { KpiLibrary } from './kpi-library.js';
import { DEFAULT_MAX_RECORDS, DEFAULT_RETENTION_MS, RecordHistory } from './record-history.js';

export interface KpiServiceOptions {
  /** `<data-dir>/state/kpi.db` */
  file: string;
  clock: Clock;
  logger: Logger;
  /** How long received records are kept for evaluation (default 7 days). */
  retentionMs?: number;
  maxRecords?: number;
  /** Reads records the history kept in a transmit's outbox format (the component registry's decoding). */
  decode: (format: string, payload: Buffer) => AgentRecord[];
}

export type KpiSaveOutcome =
  | { status: 'passed'; entry: KpiLibraryEntry; violations: Violation[] }
  | { status: 'failed'; violations: Violation[] };

const DAY_MICROS = 24 * 3600 * 1_000_000;
const MAX_BINS = 10_000;
const MAX_RECORDS_PER_MACHINE = 1_000_000;
const KNOWN_DATA_TTL_MS = 5000;

/**
 * KPIs on this edge PC: the library (validated saves), and evaluation of a saved or draft KPI on
 * the recent records the agent keeps for it.
 */
export class KpiService {
  private opened: { db: ReturnType<typeof openKpiDatabase>; library: KpiLibrary; history: RecordHistory } | undefined;
  private openFailure: { error: AgentError; retryAt: number } | undefined;
  private known: { at: number; data: KnownKpiData | undefined } | undefined;

  /**
   * Opens the KPI database. One that cannot be opened (a full disk at first start) does not stop the
   * agent: KPI requests answer 503 with the reason, and each one tries again.
   */
  constructor(private readonly options: KpiServiceOptions) {
    try {
      this.ready();
    } catch (cause) {
      options.logger.error((cause as Error).message);
    }
  }

  private ready(): NonNullable<KpiService['opened']> {
    if (this.opened) return this.opened;
    if (this.openFailure && Date.now() < this.openFailure.retryAt) throw this.openFailure.error;
    let db: ReturnType<typeof openKpiDatabase> | undefined;
    try {
      db = openKpiDatabase(this.options.file);
      const history = new RecordHistory(db, {
        clock: this.options.clock,
        retentionMs: this.options.retentionMs ?? DEFAULT_RETENTION_MS,
        maxRecords: this.options.maxRecords ?? DEFAULT_MAX_RECORDS,
        decode: this.options.decode,
      });
      this.opened = { db, library: new KpiLibrary(db), history };
      this.openFailure = undefined;
    } catch (cause) {
      db?.close();
      const message = describeWriteFailure(cause, path.dirname(this.options.file), `the KPI library (${path.basename(this.options.file)})`);
      this.openFailure = { error: new AgentError('unavailable', message), retryAt: Date.now() + 1000 };
      throw this.openFailure.error;
    }
    try {
      this.opened.history.prune();
    } catch (cause) {
      // Pruning a cache on a full disk: the records it would drop stay a little longer.
      this.options.logger.warn(`Old records kept for KPI evaluation could not be pruned: ${(cause as Error).message}`);
    }
    return this.opened;
  }

  private get library(): KpiLibrary {
    return this.ready().library;
  }

  private get history(): RecordHistory {
    return this.ready().history;
  }

  list(): KpiLibraryEntry[] {
    return this.library.list();
  }

  get(name: string): KpiLibraryEntry | undefined {
    return this.library.get(name);
  }

  /** Validates a definition; `original` is the library name of the KPI being edited, if any. */
  validate(document: unknown, kind?: KpiKind, original?: string): KpiValidationOutcome {
    return validateKpi(document, { kind, original, library: this.library.list(), known: this.knownData() });
  }

  /**
   * Machines and field names of the kept records, read again at most every few seconds: the editor
   * validates as the engineer types, and the names change only as new machines or columns arrive.
   */
  private knownData(): KnownKpiData | undefined {
    const now = Date.now();
    if (this.known && now - this.known.at < KNOWN_DATA_TTL_MS) return this.known.data;
    try {
      this.known = { at: now, data: { machines: this.history.knownData() } };
    } catch (cause) {
      this.options.logger.warn(`The machines and fields of the records kept for KPIs could not be read: ${(cause as Error).message}`);
      this.known = { at: now, data: undefined };
    }
    return this.known.data;
  }

  /**
   * Validates and stores under `pathName`. A different `name` in the document renames the stored
   * KPI `pathName` (refused when that name is taken); a new KPI must use its own name in the path.
   */
  save(pathName: string, document: unknown, kind?: KpiKind): KpiSaveOutcome {
    const existing = this.library.get(pathName);
    const outcome = this.validate(document, kind, pathName);
    const violations = [...outcome.violations];
    const name = (document as { name?: unknown } | null)?.name;
    if (!existing && typeof name === 'string' && name !== pathName)
      violations.unshift(error(['name'], say('kpi.name_differs_from_path', 'name "{name}" differs from the name in the path (/v1/kpis/{path_name}); save it as /v1/kpis/{name}.', { name, path_name: pathName })));
    if (outcome.status === 'failed' || !outcome.definition || violations.some((v) => v.level === 'error')) return { status: 'failed', violations };
    const lastModified = formatSpecTimestamp(this.options.clock.nowMicros());
    // The document as written (its key order and formatting choices), not the parsed form: the
    // editor opens it again the way the engineer wrote it. It passed validation.
    const definition = outcome.definition;
    const entry = this.writing(() => this.library.put(existing ? pathName : undefined, definition.name, outcome.kind, document, lastModified));
    const renamed = outcome.definition.name !== pathName ? ` (renamed from "${pathName}")` : '';
    this.options.logger.info(`KPI "${entry.name}" saved${renamed}, ${outcome.kind === 'line' ? 'line' : 'machine-type'} KPI.`);
    return { status: 'passed', entry, violations };
  }

  delete(name: string): boolean {
    const deleted = this.writing(() => this.library.delete(name));
    if (deleted) this.options.logger.info(`KPI "${name}" deleted.`);
    return deleted;
  }

  /** A library change; a full disk is a clear 507, not an unexpected error. */
  private writing<T>(work: () => T): T {
    try {
      return work();
    } catch (cause) {
      if (!isDiskFull(cause)) throw cause;
      throw new AgentError('disk_full', `${describeWriteFailure(cause, path.dirname(this.options.file), 'the KPI library')} Nothing was changed.`);
    }
  }

  /**
   * Where committed records are kept for evaluation: every commit, on this thread or in a parse
   * worker (its own connection to the same database), writes there.
   */
  historyTarget(): HistoryTarget {
    return { file: this.options.file, retentionMs: this.options.retentionMs ?? DEFAULT_RETENTION_MS, maxRecords: this.options.maxRecords ?? DEFAULT_MAX_RECORDS };
  }

  /**
   * This thread's writer of the history (the pipeline's commits on the main thread). Throws while
   * the database cannot be opened (the commit goes on without it).
   */
  get recordHistory(): RecordHistory {
    return this.history;
  }

  /** Records kept for evaluation (for tests and status). */
  historySize(): number {
    return this.history.count();
  }

  /** Evaluates a saved KPI (`name`) or a draft (`definition`) per machine and bin. Throws AgentError. */
  evaluate(request: EvaluateRequest): KpiEvaluation {
    if ((request.name === undefined) === (request.definition === undefined)) throw new AgentError('bad_request', 'Send either "name" (a KPI of the library) or "definition" (a KPI to try), not both or neither.');
    let document = request.definition;
    let kind = request.kind;
    if (request.name !== undefined) {
      const entry = this.library.get(request.name);
      if (!entry) throw new AgentError('not_found', `There is no KPI "${request.name}" in the library.`);
      document = entry.definition;
      kind = entry.kind;
    }
    const outcome = validateKpi(document, { kind });
    if (!outcome.definition) {
      const errors = outcome.violations.filter((v) => v.level === 'error').length;
      throw new AgentError('unprocessable', `The KPI definition has ${errors} ${errors === 1 ? 'error' : 'errors'}; it cannot be evaluated.`, { response: { status: 'failed', violations: outcome.violations } });
    }
    const { start, end, binSize } = this.range(request);
    const definition = outcome.definition;
    const machines = request.machines ?? (outcome.kind === 'line' ? lineMachines(definition) : this.history.machinesBetween(start, end));
    const series = evaluateKpi({
      definition,
      kind: outcome.kind,
      machines,
      start,
      end,
      binSize,
      records: (machine) => {
        const rows = this.history.recordsOf(machine, start, end, MAX_RECORDS_PER_MACHINE + 1);
        if (rows.length > MAX_RECORDS_PER_MACHINE) throw new AgentError('bad_request', `${machine} has more than ${MAX_RECORDS_PER_MACHINE} records in this range; choose a shorter range.`);
        return rows;
      },
    });
    return {
      name: definition.name,
      display_name: definition.display_name,
      kind: outcome.kind,
      unit: definition.unit ?? null,
      directionality: definition.directionality ?? null,
      good_threshold: definition.good_threshold ?? null,
      bad_threshold: definition.bad_threshold ?? null,
      start: isoFromMicros(start),
      end: isoFromMicros(end),
      bin_size_seconds: binSize / 1_000_000,
      machines: series,
      violations: outcome.violations,
    };
  }

  private range(request: { start?: string; end?: string; bin_size?: number | string }): { start: number; end: number; binSize: number } {
    const time = (text: string | undefined, field: string): number | undefined => {
      if (text === undefined) return undefined;
      const micros = parseTimestampToMicros(text);
      if (micros === undefined) throw new AgentError('bad_request', `${field} must be a UTC time such as 2026-01-05T06:00:00Z or 2026-01-05 06:00:00, not "${text}".`);
      return Number(micros);
    };
    const end = time(request.end, 'end') ?? Number(this.options.clock.nowMicros());
    const start = time(request.start, 'start') ?? end - DAY_MICROS;
    if (start >= end) throw new AgentError('bad_request', 'start must be before end.');
    const seconds = parseBinSize(request.bin_size ?? 3600);
    if (seconds === undefined) throw new AgentError('bad_request', `bin_size must be seconds (at least 1) or text such as "30s", "15m", "1h", "1d", not ${JSON.stringify(request.bin_size)}.`);
    const binSize = seconds * 1_000_000;
    if ((end - start) / binSize > MAX_BINS) throw new AgentError('bad_request', `The range holds more than ${MAX_BINS} bins of ${seconds} s; choose a larger bin_size or a shorter range.`);
    return { start, end, binSize };
  }

  close(): void {
    if (this.opened?.db.open) this.opened.db.close();
    this.opened = undefined;
  }
}

/** The machines a line KPI names, in the order they first appear. */
function lineMachines(definition: KpiDefinition): string[] {
  const machines = new Set<string>();
  for (const fieldMap of definition.field_maps) for (const entry of Object.values(fieldMap.alias_map as Record<string, AliasEntry>)) if (entry.machine) machines.add(entry.machine);
  return [...machines];
}


