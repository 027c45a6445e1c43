import { useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import type { LogView as LogViewName } from '../../../../shared/api/resources.js';
import { type LogFilters, useLoadOlderLog, useLog, usePermission, useStatus } from '../../api/index.js';
import { logFiltersFromHash, logsHref } from '../../app/log-link.js';
import { ErrorNotice } from '../../components/error-notice.js';
import { LocalTime } from '../../components/local-time.js';
import { useTranslations } from 'use-intl';
import { LOG_LEVELS, matchesLogFilter, parseAuditLine, parseLogLine } from './log-line.js';
import { LogView } from './log-view.js';
import { formatNumber, localDateTimeInput } from '../../format/locale.js';

type LogEntry = { name: LogViewName; label: 'core' | 'web' | 'audit'; file: string };
const LOGS: LogEntry[] = [
  { name: 'agent_core.log', label: 'core', file: 'agent_core.log' },
  { name: 'agent_web.log', label: 'web', file: 'agent_web.log' },
];
/** Who changed what through the API: offered to admins only (the agent refuses it to others). */
const AUDIT: LogEntry = { name: 'audit', label: 'audit', file: 'audit.log' };

/** The filters the address names, else the page's start: INFO and above (DEBUG holds the libraries' detail, single uploads). */
function initialFilters(): LogFilters {
  const linked = logFiltersFromHash(window.location.hash);
  return { level: linked?.level ?? 'INFO', component: linked?.component ?? '', until: linked?.until };
}

export function LogsPage() {
  const [name, setName] = useState<LogViewName>('agent_core.log');
  const auditAllowed = usePermission('auditLog').allowed;
  const offered = auditAllowed ? [...LOGS, AUDIT] : LOGS;
  const file = offered.find((entry) => entry.name === name)?.file ?? name;
  const [followWanted, setFollow] = useState(true);
  const [filters, setFilters] = useState<LogFilters>(initialFilters);
  const [jumpTo, setJumpTo] = useState('');
  // Typed in the locale's own order ("31.12.2026 22:45"): the browser's date picker follows its UI language instead.
  const jumpInput = useMemo(() => localDateTimeInput(), []);
  const jumpAt = jumpInput.parse(jumpTo);
  /** The end of the typed minute in UTC: the lines up to and within it. */
  const jumpUntil = jumpAt === undefined ? undefined : new Date(jumpAt + 59_999).toISOString();
  const [search, setSearch] = useState('');
  // Looking back to a time shows that time; following would pull the view away from it.
  const follow = followWanted && filters.until === undefined;
  const log = useLog(name, filters, follow);
  const older = useLoadOlderLog(name, filters);
  const status = useStatus();
  const t = useTranslations('logs');
  const tPages = useTranslations('pages');

  // A link from Status (or back/forward) while the page is open: its filters apply.
  useEffect(() => {
    const onHashChange = () => {
      if (logFiltersFromHash(window.location.hash)) setFilters(initialFilters());
    };
    window.addEventListener('hashchange', onHashChange);
    return () => window.removeEventListener('hashchange', onHashChange);
  }, []);
  // The address says what is shown, so that it can be shared (no navigation: replaceState).
  useEffect(() => {
    const href = logsHref({ level: filters.level || undefined, component: filters.component || undefined, until: filters.until });
    if (window.location.hash !== href) window.history.replaceState(window.history.state, '', href);
  }, [filters]);

  const parsed = useMemo(() => (log.data?.lines ?? []).map(name === 'audit' ? parseAuditLine : parseLogLine), [log.data, name]);
  // Components seen in this log so far and the configured services: choosing one asks the agent for its lines only.
  const seen = useRef(new Set<string>());
  for (const line of parsed) if (line.component) seen.current.add(line.component);
  const components = useMemo(() => {
    // The audit trail's components are token names: the services are not among them.
    const all = new Set(name === 'audit' ? [...seen.current].filter((c) => !c.includes(':')) : [...seen.current, ...Object.keys(status.data?.agent.services ?? {})]);
    if (filters.component) all.add(filters.component);
    return [...all].sort();
  }, [parsed, status.data, filters.component, name]);
  // Typing in the search box stays responsive while 100,000 lines are filtered behind it.
  const text = useDeferredValue(search);
  const shown = useMemo(() => parsed.filter((line) => matchesLogFilter(line, { minimumLevel: '', component: '', search: text })), [parsed, text]);
  const change = (next: Partial<LogFilters>) => setFilters((current) => ({ ...current, ...next }));

  return (
    <section className="page page-fill" aria-labelledby="logs-title">
      <div className="page-head">
        <h1 id="logs-title">{tPages('logs')}</h1>
        <LogChoice
          offered={offered}
          name={name}
          onChoose={(next) => {
            if (next !== name) {
              // The components of one log are not those of another (services vs. token names).
              seen.current = new Set();
              if (filters.component) change({ component: '' });
            }
            setName(next);
          }}
        />
      </div>
      <div className="toolbar">
        <label className="field">
          {t('level')}
          <select value={filters.level} onChange={(e) => change({ level: e.target.value as LogFilters['level'] })} aria-label={t('level')}>
            <option value="">{t('allLevels')}</option>
            {LOG_LEVELS.map((level) => (
              <option key={level} value={level}>
                {t('andAbove', { level })}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          {name === 'audit' ? t('token') : t('component')}
          <select value={filters.component} onChange={(e) => change({ component: e.target.value })} aria-label={name === 'audit' ? t('token') : t('component')}>
            <option value="">{name === 'audit' ? t('allTokens') : t('allComponents')}</option>
            {components.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </label>
        <form
          className="log-jump-form"
          onSubmit={(event) => {
            event.preventDefault();
            if (jumpUntil) change({ until: jumpUntil });
          }}
        >
          <label className="field">
            {t('jump')}
            <input type="text" inputMode="numeric" value={jumpTo} onChange={(e) => setJumpTo(e.target.value)} aria-label={t('jump')} placeholder={jumpInput.example} title={t('jumpTitle', { example: jumpInput.example })} />
          </label>
          <button type="submit" className="button" disabled={jumpUntil === undefined}>
            {t('go')}
          </button>
        </form>
        <input type="search" className="filter" placeholder={t('search')} aria-label={t('searchLabel')} value={search} onChange={(e) => setSearch(e.target.value)} />
        <label className="check-label" title={filters.until ? t('followTitle') : undefined}>
          <input type="checkbox" checked={follow} disabled={filters.until !== undefined} onChange={(e) => setFollow(e.target.checked)} /> {t('follow')}
        </label>
        <button type="button" className="button" onClick={() => void log.refetch()} disabled={log.isFetching}>
          {t('refresh')}
        </button>
      </div>
      <div className="toolbar log-older">
        <button type="button" className="button small" onClick={() => older.mutate()} disabled={!log.data?.hasOlder || older.isPending}>
          {older.isPending ? t('loadingOlder') : t('loadOlder')}
        </button>
        {filters.until !== undefined && (
          <span className="log-looking-back">
            {t.rich('linesUpTo', { time: () => <LocalTime value={filters.until!} /> })}
            <button
              type="button"
              className="button small"
              onClick={() => {
                change({ until: undefined });
                setFollow(true);
              }}
            >
              {t('backToNewest')}
            </button>
          </span>
        )}
        <span className="muted small" data-testid="log-count">
          {t('count', { shown: formatNumber(shown.length), count: parsed.length })}
          {log.data && !log.data.hasOlder ? t('oldest') : ''}
          {t('countHint')}
        </span>
      </div>
      {older.isError && <ErrorNotice title={t('olderUnreadable')} error={older.error} />}
      {log.isError && !log.data && <ErrorNotice title={t('unreadable')} error={log.error} />}
      {!log.data && !log.isError && <p className="muted">{t('loading', { file })}</p>}
      {log.data && parsed.length === 0 && <p className="muted">{filters.level || filters.component || filters.until ? t('noMatch', { file }) : t('empty', { file })}</p>}
      {parsed.length > 0 && <LogView lines={shown} follow={follow} />}
    </section>
  );
}

/** Core, Web and (for admins) Audit: which log the page reads. */
function LogChoice({ offered, name, onChoose }: { offered: readonly LogEntry[]; name: LogViewName; onChoose: (name: LogViewName) => void }) {
  const t = useTranslations('logs');
  return (
    <div className="segmented" role="radiogroup" aria-label={t('file')}>
      {offered.map((entry) => (
        <button key={entry.name} type="button" role="radio" aria-checked={name === entry.name} className={name === entry.name ? 'active' : ''} onClick={() => onChoose(entry.name)}>
          {t(entry.label)} <span className="muted small">{entry.file}</span>
        </button>
      ))}
    </div>
  );
}
