/** A log line `YYYY-MM-DD HH:MM:SS.ffffff | thread | component | LEVEL | message`, taken apart. */
export interface LogLine {
  timestamp: string;
  thread: string;
  component: string;
  level: string;
  message: string;
  raw: string;
}

export const LOG_LEVELS = ['DEBUG', 'INFO', 'WARNING', 'ERROR'] as const;
const RANK: Record<string, number> = { DEBUG: 0, INFO: 1, WARNING: 2, ERROR: 3, CRITICAL: 4 };

export function parseLogLine(raw: string): LogLine {
  const parts = raw.split(' | ');
  if (parts.length < 5) return { timestamp: '', thread: '', component: '', level: '', message: raw, raw };
  const [timestamp, thread, component, level, ...message] = parts;
  // The message itself may contain " | ": everything after the fourth separator belongs to it.
  return { timestamp: timestamp!, thread: thread!, component: component!, level: level!.trim().toUpperCase(), message: message.join(' | '), raw };
}

/**
 * An audit line `stamp | token=<name> | role=<role> | METHOD path | status outcome [| revision=N]`
 * as a log line: the token is its component, the level follows the status as the agent's filter
 * judges it (below 400 INFO, 4xx WARNING, 5xx ERROR).
 */
export function parseAuditLine(raw: string): LogLine {
  const parts = raw.split(' | ');
  if (parts.length < 5 || !parts[1]!.startsWith('token=')) return { timestamp: '', thread: '', component: '', level: '', message: raw, raw };
  const [timestamp, token, role, request, outcome, ...rest] = parts;
  const status = Number.parseInt(outcome!, 10);
  const level = status >= 500 ? 'ERROR' : status >= 400 ? 'WARNING' : 'INFO';
  const message = [`${request} → ${outcome}`, role!.replace('role=', 'as '), ...rest].join(' · ');
  return { timestamp: timestamp!, thread: 'audit', component: token!.slice('token='.length), level, message, raw };
}

export interface LogFilter {
  /** Lowest level shown; '' shows every line. */
  minimumLevel: string;
  component: string;
  search: string;
}

export function matchesLogFilter(line: LogLine, filter: LogFilter): boolean {
  if (filter.minimumLevel && (RANK[line.level] ?? RANK.INFO!) < (RANK[filter.minimumLevel] ?? 0)) return false;
  if (filter.component && line.component !== filter.component) return false;
  if (filter.search && !line.raw.toLowerCase().includes(filter.search.toLowerCase())) return false;
  return true;
}
