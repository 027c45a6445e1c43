import { useDeferredValue, useMemo, useState } from 'react';
import type { LogName } from '../../../../shared/api/resources.js';
import { useLog } from '../../api/index.js';
import { ErrorNotice } from '../../components/error-notice.js';
import { plural } from '../../format/quantities.js';
import { LOG_LEVELS, matchesLogFilter, parseLogLine } from './log-line.js';
import { LogView } from './log-view.js';

const LOGS: { name: LogName; label: string }[] = [
  { name: 'agent_core.log', label: 'Core' },
  { name: 'agent_web.log', label: 'Web' },
];

export function LogsPage() {
  const [name, setName] = useState<LogName>('agent_core.log');
  const [follow, setFollow] = useState(true);
  // DEBUG holds the libraries' detail (node-opcua, per-poll counts): an operator starts without it.
  const [minimumLevel, setMinimumLevel] = useState('INFO');
  const [component, setComponent] = useState('');
  const [search, setSearch] = useState('');
  const log = useLog(name, follow);

  const parsed = useMemo(() => (log.data ?? []).map(parseLogLine), [log.data]);
  const components = useMemo(() => [...new Set(parsed.map((l) => l.component).filter(Boolean))].sort(), [parsed]);
  // Typing in the search box stays responsive while 100,000 lines are filtered behind it.
  const filter = useDeferredValue(useMemo(() => ({ minimumLevel, component, search }), [minimumLevel, component, search]));
  const shown = useMemo(() => parsed.filter((line) => matchesLogFilter(line, filter)), [parsed, filter]);

  return (
    <section className="page page-fill" aria-labelledby="logs-title">
      <div className="page-head">
        <h1 id="logs-title">Logs</h1>
        <div className="segmented" role="radiogroup" aria-label="Log file">
          {LOGS.map((entry) => (
            <button key={entry.name} type="button" role="radio" aria-checked={name === entry.name} className={name === entry.name ? 'active' : ''} onClick={() => setName(entry.name)}>
              {entry.label} <span className="muted small">{entry.name}</span>
            </button>
          ))}
        </div>
      </div>
      <div className="toolbar">
        <label className="field">
          Level
          <select value={minimumLevel} onChange={(e) => setMinimumLevel(e.target.value)} aria-label="Level">
            <option value="">All levels</option>
            {LOG_LEVELS.map((level) => (
              <option key={level} value={level}>
                {level} and above
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          Component
          <select value={component} onChange={(e) => setComponent(e.target.value)} aria-label="Component">
            <option value="">All components</option>
            {components.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </label>
        <input type="search" className="filter" placeholder="Search text" aria-label="Search log" value={search} onChange={(e) => setSearch(e.target.value)} />
        <label className="check-label">
          <input type="checkbox" checked={follow} onChange={(e) => setFollow(e.target.checked)} /> Follow
        </label>
        <button type="button" className="button" onClick={() => void log.refetch()} disabled={log.isFetching}>
          Refresh
        </button>
        <span className="muted small" data-testid="log-count">
          {shown.length.toLocaleString('en-US')} of {plural(parsed.length, 'line')} · times in local time (UTC on hover)
        </span>
      </div>
      {log.isError && !log.data && <ErrorNotice title="The log cannot be read" error={log.error} />}
      {!log.data && !log.isError && <p className="muted">Loading {name}…</p>}
      {log.data && parsed.length === 0 && <p className="muted">{name} is empty.</p>}
      {parsed.length > 0 && <LogView lines={shown} follow={follow} />}
    </section>
  );
}
