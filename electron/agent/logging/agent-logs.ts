import path from 'node:path';
import { AgentError } from '../errors/agent-error.js';
import { parseTimestampToMicros } from '../../../shared/api/envelope.js';
import type { LogName } from '../../../shared/api/resources.js';
import type { Clock } from '../time/clock.js';
import type { StorageHealth } from '../disk/storage-health.js';
import type { StorageRecovery } from '../disk/storage-recovery.js';
import { AuditLog } from './audit-log.js';
import { LogFile } from './log-file.js';
import { readLastLines } from './log-reader.js';
import type { LogFilter } from './log-filter.js';
import { type LogSlice, openLogSlice } from './log-slice.js';
import { type LogLevel, Logger, Redactor } from './logger.js';

/** What a log read asks for (GET /v1/log/stream…). */
export interface LogQuery {
  lines: number;
  since?: string;
  until?: string;
  level?: LogLevel;
  component?: string;
}

/** A read of more lines than this is a large one; at most MAX_LARGE_READS of them run at once. */
export const LARGE_READ_LINES = 5000;
export const MAX_LARGE_READS = 3;

export interface AgentLogsOptions {
  /** `<data-dir>/logs` */
  directory: string;
  clock: Clock;
  storage: StorageHealth;
  recovery: StorageRecovery;
  /** Rotation: bytes per file and generations kept (default 10 MiB × 5). */
  maxBytes?: number;
  keep?: number;
  /** Values always redacted (the API token), besides the configuration's secrets. */
  secrets?: readonly string[];
}

/**
 * agent_core.log and agent_web.log with their loggers. A log that cannot be written (full disk) or
 * rotated shows in status (StorageHealth) and recovers by itself; once it does, a line says how
 * many lines were written late and how many were lost.
 */
export class AgentLogs {
  readonly redactor: Redactor;
  readonly core: Logger;
  readonly web: Logger;
  /** logs/audit.log and audit-refused.log: who changed what through the API, what was refused (audit.log readable by admins through /v1/log/stream/audit). */
  readonly audit: AuditLog;
  private readonly files: Record<LogName, LogFile>;
  private largeReads = 0;
  private readonly auditFile: LogFile;
  private readonly refusedFile: LogFile;

  constructor(private readonly options: AgentLogsOptions) {
    this.redactor = new Redactor(options.secrets);
    this.files = { 'agent_core.log': this.open('agent_core.log'), 'agent_web.log': this.open('agent_web.log') };
    this.core = new Logger(this.files['agent_core.log'], this.redactor, options.clock, 'agent');
    this.web = new Logger(this.files['agent_web.log'], this.redactor, options.clock, 'api', 'http');
    // Actions and refusals in files of their own, each with its own rotation budget: nobody refused
    // can rotate an action away (issue 50).
    this.auditFile = this.open('audit.log');
    this.refusedFile = this.open('audit-refused.log');
    this.audit = new AuditLog(this.auditFile, this.redactor, options.clock, this.refusedFile);
  }

  private open(name: LogName | 'audit.log' | 'audit-refused.log'): LogFile {
    const { storage, recovery, directory } = this.options;
    const area = `logs:${name}`;
    const file: LogFile = new LogFile(path.join(directory, name), {
      maxBytes: this.options.maxBytes ?? 10 * 1024 * 1024,
      keep: this.options.keep ?? 5,
      events: {
        failed: (cause, during) => {
          storage.report(area, directory, cause, during === 'rotate' ? `the rotated copy of ${name} (it grows past its size limit meanwhile)` : `the log ${name}`);
          recovery.retry(area, () => file.retry());
        },
        recovered: ({ kept, dropped }) => {
          storage.resolve(area);
          if (kept > 0 || dropped > 0) this.core.warn(`${name} could not be written for a while: ${kept} line(s) were kept in memory and written late, ${dropped} line(s) were lost.`);
        },
      },
    });
    return file;
  }

  /** The last `lines` lines of a log, optionally only those after `since`. */
  read(name: LogName, lines: number, since?: string): string[] {
    return readLastLines(this.files[name].generations(), lines, timeOf('since', since));
  }

  /**
   * The last `lines` lines of a log that pass the query's filters, over the current file and its
   * rotated generations, as a slice read while it is sent. Large reads (by the lines found, not
   * asked: the console asks for 100,000 after `since`) are limited to a few at once (429 beyond):
   * each holds files open and costs disk reads while a client takes its time.
   */
  async slice(name: LogName | 'audit', query: LogQuery): Promise<LogSlice> {
    const filter: LogFilter = {
      since: timeOf('since', query.since),
      until: timeOf('until', query.until),
      level: query.level,
      component: query.component === undefined || query.component === '' ? undefined : query.component,
      shape: name === 'audit' ? 'audit' : 'agent',
    };
    // The audit trail: actions only (audit.log); refusals stay in audit-refused.log (docs/decisions/0069).
    const files = name === 'audit' ? this.auditFile.generations() : this.files[name].generations();
    const slice = await openLogSlice(files, query.lines, filter);
    if (slice.count <= LARGE_READ_LINES) return slice;
    if (this.largeReads >= MAX_LARGE_READS) {
      await slice.close();
      throw new AgentError('busy', `${MAX_LARGE_READS} reads of more than ${LARGE_READ_LINES} log lines are running; try again in a moment or ask for fewer lines.`, { retryAfterSeconds: 2 });
    }
    this.largeReads += 1;
    let released = false;
    return {
      ...slice,
      close: async () => {
        await slice.close();
        if (!released) this.largeReads -= 1;
        released = true;
      },
    };
  }

  close(): void {
    for (const file of Object.values(this.files)) file.close();
    this.audit.flushRefusals();
    this.auditFile.close();
    this.refusedFile.close();
  }
}

function timeOf(name: 'since' | 'until', text: string | undefined): bigint | undefined {
  if (text === undefined) return undefined;
  const micros = parseTimestampToMicros(text);
  if (micros === undefined) throw new AgentError('bad_request', `${name} must be a time such as 2024-05-01 12:00:00.000000 (UTC) or ISO 8601, not "${text}".`);
  return micros;
}
