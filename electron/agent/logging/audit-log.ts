import { formatSpecTimestamp } from '../../../shared/api/envelope.js';
import type { Clock } from '../time/clock.js';
import type { LogFile } from './log-file.js';
import type { Redactor } from './logger.js';
import { loggablePath } from './request-text.js';
import { type Disposable, DisposableStore } from '../lifecycle/index.js';

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
/** A refused request's path is cut shorter: anyone who reaches the port chooses it. */
export const MAX_REFUSED_PATH = 120;
/**
 * Kinds of refusal without a valid token (method and path, chosen by whoever sends them) counted
 * apart in one minute; beyond, together. Refusals of named tokens are counted by route pattern, of
 * which there are as many as the route table has: they need no bound of their own.
 */
export const MAX_REFUSAL_KINDS_PER_MINUTE = 200;
const MINUTE_MS = 60_000;

/** A request refused before its handler ran (401, 403). */
export interface RefusalEntry {
  token: string;
  role: string;
  method: string;
  /** The route's pattern when one matched (`/v1/tokens/{name}`), else the path. */
  path: string;
  status: number;
  outcome: string;
}

interface Counted {
  entry: RefusalEntry;
  more: number;
}

/** Control characters, quotes and `|` written as escapes: one entry, one line, whatever a path holds. */
function escapeField(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f|\\]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

const cut = (path: string, max: number) => (path.length > max ? `${path.slice(0, max)}…` : path);

/**
 * logs/audit.log: who did what through the API, one line per request to an operator or admin route
 * that reached it, rotated like the other logs. Refused requests (401, 403) go to
 * logs/audit-refused.log, aggregated: per minute, the first of each kind (token, role, method, route,
 * status) at once and then one line with how many more (issue 50: a viewer's 403 flood rotated the
 * whole trail away). The two files rotate apart, so refusals never push an action out.
 * Written through the redactor, and never given a token or a body: only names, roles, method, path
 * and outcome.
 *   2026-05-01 12:00:00.000000 | token=ops-desk | role=operator | POST /v1/agent/stop | 200 ok
 *   2026-05-01 12:00:59.000000 | token=shift-b | role=viewer | POST /v1/agent/stop | 403 refused: needs operator | 4999 more within the minute
 */
export class AuditLog {
  private readonly refusals = new Map<string, Counted>();
  private otherRefusals = 0;
  private anonymousKinds = 0;
  private readonly timers = new DisposableStore();
  private timer: Disposable | undefined;

  constructor(
    private readonly file: LogFile,
    private readonly redactor: Redactor,
    private readonly clock: Clock,
    private readonly refusedFile: LogFile = file,
  ) {}

  record(entry: AuditEntry): void {
    const fields = this.fields(entry.token, entry.role, entry.method, cut(loggablePath(entry.path), MAX_PATH), entry.status, entry.outcome);
    if (entry.revision !== undefined) fields.push(`revision=${entry.revision}`);
    this.file.append(this.redactor.redact(fields.join(' | ')));
  }

  /** A refused request: the first of its kind in a minute is written at once, the rest counted. */
  refused(entry: RefusalEntry): void {
    const shown = { ...entry, path: cut(loggablePath(entry.path), MAX_REFUSED_PATH) };
    const key = [shown.token, shown.role, shown.method, shown.path, shown.status, shown.outcome].join('\0');
    const counted = this.refusals.get(key);
    if (counted) {
      counted.more += 1;
      return;
    }
    if (shown.token === '-') {
      if (this.anonymousKinds >= MAX_REFUSAL_KINDS_PER_MINUTE) {
        this.otherRefusals += 1;
        return;
      }
      this.anonymousKinds += 1;
    }
    this.refusals.set(key, { entry: shown, more: 0 });
    this.writeRefusal(shown);
    if (!this.timer) {
      this.timer = this.timers.setTimeout(() => this.flushRefusals(), MINUTE_MS);
    }
  }

  /** Writes the counts of the minute (at its end, and on stop). */
  flushRefusals(): void {
    if (this.timer) this.timers.delete(this.timer);
    this.timer = undefined;
    for (const { entry, more } of this.refusals.values()) if (more > 0) this.writeRefusal(entry, `${more} more within the minute`);
    if (this.otherRefusals > 0) this.writeRefusal({ token: '-', role: '-', method: '*', path: '*', status: 401, outcome: 'unauthenticated' }, `${this.otherRefusals} more on other paths within the minute`);
    this.refusals.clear();
    this.otherRefusals = 0;
    this.anonymousKinds = 0;
  }

  /** The files of the log, newest first (tests and support bundles read them). */
  files(): string[] {
    return this.file.generations();
  }

  /** The files of the refusals, newest first. */
  refusedFiles(): string[] {
    return this.refusedFile.generations();
  }

  private writeRefusal(entry: RefusalEntry, count?: string): void {
    const fields = this.fields(entry.token, entry.role, entry.method, entry.path, entry.status, entry.outcome);
    if (count !== undefined) fields.push(count);
    this.refusedFile.append(this.redactor.redact(fields.join(' | ')));
  }

  private fields(token: string, role: string, method: string, path: string, status: number, outcome: string): string[] {
    return [
      formatSpecTimestamp(this.clock.nowMicros()),
      `token=${escapeField(token)}`,
      `role=${escapeField(role)}`,
      `${escapeField(method)} ${escapeField(path)}`,
      `${status} ${escapeField(outcome)}`,
    ];
  }
}
