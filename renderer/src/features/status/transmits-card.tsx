import type { ReactNode } from 'react';
import type { FlowHistory } from '../../../../shared/api/history.js';
import type { Status } from '../../../../shared/api/resources.js';
import { TimeChart } from '../../components/time-chart.js';
import { LocalTime } from '../../components/local-time.js';
import { bytes } from '../../format/quantities.js';
import { parseAgentTime } from '../../format/time.js';
import { backlogSeries, duration, shownRate } from './data-flow.js';
import { useTranslations } from 'use-intl';
import { formatNumber } from '../../format/locale.js';
import { text } from '../../i18n/language.js';
import { agentText } from '../../i18n/agent-text.js';

/** Fields shown in this order with these words; others follow as they come (the API may grow). */
const KNOWN = ['transmit_type', 'last_success', 'records_sent', 'backlog_records', 'drain_seconds', 'lag_seconds', 'records_per_minute', 'upload_errors', 'last_error', 'sparkplug'] as const;
type KnownKey = (typeof KNOWN)[number];
const isKnown = (key: string): key is KnownKey => (KNOWN as readonly string[]).includes(key);
const FOLDED = new Set(['bytes_sent', 'backlog_bytes', 'last_error_at', 'last_error_code', 'last_error_params']);

/** What each transmit delivered: times in local time, sizes in units, counts in words. */
export function TransmitsCard({ transmits, history }: { transmits: Status['last_data_transmit']; history?: FlowHistory }) {
  const entries = Object.entries(transmits);
  const t = useTranslations('transmits');
  return (
    <div className="card">
      <h2>{t('title')}</h2>
      {entries.length === 0 && <p className="muted">{t('none')}</p>}
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
  const keys = [...KNOWN.filter((k) => k in details), ...Object.keys(details).filter((k) => !isKnown(k) && !FOLDED.has(k))];
  return (
    <dl className="facts">
      {keys.map((key) => (
        <div key={key}>
          <dt>{isKnown(key) ? text(`transmits.known.${key}`) : sentence(key)}</dt>
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
      return text('transmits.sent', { records: text('common.records', { count: count(value) }), bytes: bytes(count(details.bytes_sent)) });
    case 'backlog_records':
      return count(value) === 0 ? text('transmits.noBacklog') : text('transmits.backlog', { records: text('common.records', { count: count(value) }), bytes: bytes(count(details.backlog_bytes)) });
    case 'records_per_minute':
      return text('transmits.rate', { rate: shownRate(count(value), true) });
    case 'lag_seconds':
      return value === null ? <span className="muted">{text('transmits.nothingWaiting')}</span> : text('transmits.ago', { duration: duration(count(value)) });
    case 'drain_seconds':
      if (value === 0) return <span className="muted">{text('transmits.nothingToDrain')}</span>;
      if (value === null) return <span className="warning-text">{text('transmits.drainUnknown')}</span>;
      return text('transmits.drainAbout', { duration: duration(count(value)) });
    case 'upload_errors':
      return count(value) === 0 ? <span className="muted">{text('common.none')}</span> : <span className="warning-text">{text('transmits.failedDeliveries', { count: count(value) })}</span>;
    case 'sparkplug': {
      const node = value as { state?: string; message?: string; code?: string; params?: Record<string, unknown> } | undefined;
      if (!node || typeof node !== 'object') return generic(key, value);
      return (
        <span className={node.state === 'born' ? undefined : 'warning-text'} data-sparkplug-state={node.state}>
          {agentText(node.code, node.params, node.message ?? '')}
        </span>
      );
    }
    case 'last_success':
      return value ? <LocalTime value={String(value)} /> : <span className="muted">{text('transmits.notYet')}</span>;
    case 'last_error':
      return value ? (
        <span className="error-text">
          {agentText(typeof details.last_error_code === 'string' ? details.last_error_code : undefined, details.last_error_params as Record<string, unknown> | undefined, String(value))}
          {typeof details.last_error_at === 'string' && (
            <>
              {' '}
              (<LocalTime value={details.last_error_at} />)
            </>
          )}
        </span>
      ) : (
        <span className="muted">{text('common.none')}</span>
      );
    default:
      return generic(key, value);
  }
}

function generic(key: string, value: unknown): ReactNode {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'number') return /bytes/.test(key) ? bytes(value) : formatNumber(value);
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
  const t = useTranslations('transmits');
  if (times.length === 0) return <p className="muted small">{t('noBacklogHistory')}</p>;
  return (
    <TimeChart
      label={t('backlogLabel', { name })}
      times={times}
      series={[{ label: t('recordsWaiting'), color: 'var(--warn)', values, points: times.length < 3 }]}
      xRange={[Date.parse(history.start), Date.parse(history.end)]}
      height={110}
      testId="backlog-chart"
      title={t('backlogTitle')}
    />
  );
}
