/**
 * Links into the Logs page with its filters in the address (#/logs?component=…&level=…&until=…), so
 * that a service's error on Status opens its own log lines, and the address can be shared.
 */
export interface LogLinkFilters {
  component?: string;
  level?: 'DEBUG' | 'INFO' | 'WARNING' | 'ERROR';
  /** Agent time (UTC: spec form or ISO 8601): lines at or before it. */
  until?: string;
}

const LEVELS = new Set(['DEBUG', 'INFO', 'WARNING', 'ERROR']);

export function logsHref(filters: LogLinkFilters): string {
  const query = new URLSearchParams();
  if (filters.component) query.set('component', filters.component);
  if (filters.level) query.set('level', filters.level);
  if (filters.until) query.set('until', filters.until);
  const text = query.toString();
  return `#/logs${text ? `?${text}` : ''}`;
}

/** The filters of a #/logs address; undefined when the address names none (the page keeps its own). */
export function logFiltersFromHash(hash: string): LogLinkFilters | undefined {
  const at = hash.indexOf('?');
  if (!/^#\/?logs\b/.test(hash) || at < 0) return undefined;
  const query = new URLSearchParams(hash.slice(at + 1));
  const level = query.get('level') ?? undefined;
  return {
    component: query.get('component') ?? undefined,
    level: level && LEVELS.has(level) ? (level as LogLinkFilters['level']) : undefined,
    until: query.get('until') ?? undefined,
  };
}

/**
 * The log lines of a service's problem: its warnings and errors up to a minute after `at` (the
 * problem's time; the line that says it is written just after the marker is raised).
 */
export function serviceLogHref(service: string, at: string | null | undefined, parse: (text: string) => number): string {
  const ms = at ? parse(at) : Number.NaN;
  const until = Number.isNaN(ms) ? undefined : new Date(ms + 60_000).toISOString();
  return logsHref({ component: service, level: 'WARNING', until });
}
