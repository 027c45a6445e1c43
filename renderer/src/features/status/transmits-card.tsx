import type { ReactNode } from 'react';
import type { FlowHistory } from '../../../../shared/api/history.js';
import type { Status } from '../../../../shared/api/resources.js';
import { TimeChart } from '../../components/time-chart.js';
import { LocalTime } from '../../components/local-time.js';
import { bytes, plural } from '../../format/quantities.js';
import { parseAgentTime } from '../../format/time.js';
import { backlogSeries, duration, shownRate } from './data-flow.js';

/** Fields shown in this order with these words; others follow as they come (the API may grow). */
const KNOWN: Record<string, string> = {
  transmit_type: 'Type',
  last_success: 'Last success',
  records_sent: 'Sent',
  backlog_records: 'Backlog (waiting)',
  drain_seconds: 'Drains in',
  lag_seconds: 'Oldest waiting',
  records_per_minute: 'Rate',
  upload_errors: 'Upload errors',
  last_error: 'Last error',
  sparkplug: 'Sparkplug node',
};
const FOLDED = new Set(['bytes_sent', 'backlog_bytes', 'last_error_at']);

/** What each transmit delivered: times in local time, sizes in units, counts in words. */
export function TransmitsCard({ transmits, history }: { transmits: Status['last_data_transmit']; history?: FlowHistory }) {
  const entries = Object.entries(transmits);
  return (
    <div className="card">
      <h2>Last data transmit</h2>
      {entries.length === 0 && <p className="muted">Nothing has been transmitted yet.</p>}
      {entries.map(([name, details]) => (
        <div key={name} className="transmit" data-transmit={name}>
          <h3>{name}</h3>
          {details && typeof details === 'object' && !Array.isArray(details) ? <Facts details={details as Record<string, unknown>} /> : <p>{String(details)}</p>}
          {history && <BacklogChart name={name} history={history} />}
        </div>
      ))}
    </div>
  );
}

function Facts({ details }: { details: Record<string, unknown> }) {
  const keys = [...Object.keys(KNOWN).filter((k) => k in details), ...Object.keys(details).filter((k) => !(k in KNOWN) && !FOLDED.has(k))];
  return (
    <dl className="facts">
      {keys.map((key) => (
        <div key={key}>
          <dt>{KNOWN[key] ?? sentence(key)}</dt>
          <dd>{fact(key, details)}</dd>
        </div>
      ))}
    </dl>
  );
}

function fact(key: string, details: Record<string, unknown>): ReactNode {
  const value = details[key];
  const count = (n: unknown) => (typeof n === 'number' ? n : 0);
  switch (key) {
    case 'records_sent':
      return `${plural(count(value), 'record')} (${bytes(count(details.bytes_sent))})`;
    case 'backlog_records':
      return count(value) === 0 ? 'none: everything read is sent' : `${plural(count(value), 'record')} waiting (${bytes(count(details.backlog_bytes))})`;
    case 'records_per_minute':
      return `${shownRate(count(value), true)} records/min (last 5 min)`;
    case 'lag_seconds':
      return value === null ? <span className="muted">nothing waiting</span> : `${duration(count(value))} ago`;
    case 'drain_seconds':
      if (value === 0) return <span className="muted">nothing to drain</span>;
      if (value === null) return <span className="warning-text">unknown: nothing was delivered in the last 5 minutes</span>;
      return `about ${duration(count(value))} at the recent rate`;
    case 'upload_errors':
      return count(value) === 0 ? <span className="muted">none</span> : <span className="warning-text">{plural(count(value), 'failed delivery', 'failed deliveries')} (retried)</span>;
    case 'sparkplug': {
      const node = value as { state?: string; message?: string } | undefined;
      if (!node || typeof node !== 'object') return generic(key, value);
      return (
        <span className={node.state === 'born' ? undefined : 'warning-text'} data-sparkplug-state={node.state}>
          {node.message}
        </span>
      );
    }
    case 'last_success':
      return value ? <LocalTime value={String(value)} /> : <span className="muted">not yet</span>;
    case 'last_error':
      return value ? (
        <span className="error-text">
          {String(value)}
          {typeof details.last_error_at === 'string' && (
            <>
              {' '}
              (<LocalTime value={details.last_error_at} />)
            </>
          )}
        </span>
      ) : (
        <span className="muted">none</span>
      );
    default:
      return generic(key, value);
  }
}

function generic(key: string, value: unknown): ReactNode {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'number') return /bytes/.test(key) ? bytes(value) : value.toLocaleString('en-US');
  if (typeof value === 'string' && /(_at|_time|timestamp|last_success)$/.test(key) && !Number.isNaN(parseAgentTime(value))) return <LocalTime value={value} />;
  if (typeof value === 'object') return <code>{JSON.stringify(value)}</code>;
  return String(value);
}

function sentence(key: string): string {
  const words = key.replaceAll('_', ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The backlog of one transmit per minute over the history's window. */
function BacklogChart({ name, history }: { name: string; history: FlowHistory }) {
  const { times, values } = backlogSeries(history, name);
  if (times.length === 0) return <p className="muted small">No backlog history yet.</p>;
  return (
    <TimeChart
      label={`Backlog of ${name} (records waiting) per minute over the last hour`}
      times={times}
      series={[{ label: 'records waiting', color: 'var(--warn)', values, points: times.length < 3 }]}
      xRange={[Date.parse(history.start), Date.parse(history.end)]}
      height={110}
      testId="backlog-chart"
      title="Records waiting (backlog) per minute, last hour; gaps: the agent did not run"
    />
  );
}
