import { formatSpecTimestamp } from '../../../shared/api/envelope.js';
import type { Clock } from '../time/clock.js';
import type { LogFile } from './log-file.js';
import type { Redactor } from './logger.js';
import { loggablePath } from './request-text.js';

/** One request that changed (or tried to change) something, or was refused. */
export interface AuditEntry {
  /** Token name; `-` when the request carried no valid token. */
  token: string;
  /** The token's role; `-` without a valid token. */
  role: string;
  method: string;
  /** The path only: a query could carry the console's token. */
  path: string;
  status: number;
  /** `ok`, `failed`, `refused: needs admin`, `unauthenticated` … */
  outcome: string;
  /** The configuration revision a save made. */
  revision?: number;
}

const MAX_PATH = 300;

/** Control characters, quotes and `|` written as escapes: one entry, one line, whatever a path holds. */
function escapeField(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f|\\]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/**
 * logs/audit.log: who did what through the API, one line per state-changing request and per refused
 * one, rotated like the other logs. Written through the redactor, and never given a token or a
 * body: only names, roles, method, path and outcome.
 *   2026-05-01 12:00:00.000000 | token=ops-desk | role=operator | POST /v1/agent/stop | 200 ok
 */
export class AuditLog {
  constructor(
    private readonly file: LogFile,
    private readonly redactor: Redactor,
    private readonly clock: Clock,
  ) {}

  record(entry: AuditEntry): void {
    const bare = loggablePath(entry.path);
    const path = bare.length > MAX_PATH ? `${bare.slice(0, MAX_PATH)}…` : bare;
    const fields = [
      formatSpecTimestamp(this.clock.nowMicros()),
      `token=${escapeField(entry.token)}`,
      `role=${escapeField(entry.role)}`,
      `${escapeField(entry.method)} ${escapeField(path)}`,
      `${entry.status} ${escapeField(entry.outcome)}`,
    ];
    if (entry.revision !== undefined) fields.push(`revision=${entry.revision}`);
    this.file.append(this.redactor.redact(fields.join(' | ')));
  }

  /** The files of the log, newest first (tests and support bundles read them). */
  files(): string[] {
    return this.file.generations();
  }
}
