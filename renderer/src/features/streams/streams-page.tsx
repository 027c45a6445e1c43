import { useMemo, useState } from 'react';
import type { StreamRecord } from '../../../../shared/api/resources.js';
import { errorText, usePermission, useRestream, useStreams } from '../../api/index.js';
import { GatedButton } from '../../components/gated-button.js';
import { useToast } from '../../app/toasts.js';
import { ConfirmDialog } from '../../components/confirm-dialog.js';
import { ErrorNotice } from '../../components/error-notice.js';
import { LocalTime } from '../../components/local-time.js';
import { QualityNote } from '../../components/quality-note.js';
import { BackfillNote } from '../../components/backfill-note.js';
import { FileReadingBar } from '../../components/file-reading-bar.js';
import { ago } from '../../format/time.js';
import { matchesFilter, newestMarkers, restreamRequestFor, streamKey } from './stream-selection.js';
import { formatNumber } from '../../format/locale.js';
import { useTranslations } from 'use-intl';
import { agentTextOf } from '../../i18n/agent-text.js';

export function StreamsPage() {
  // Streams restreamed from this page, with their records_read when asked: their row shows the
  // progress until the agent has read them again.
  const [restreamed, setRestreamed] = useState<ReadonlyMap<string, number>>(new Map());
  const streams = useStreams({ fast: restreamed.size > 0 });
  const restream = useRestream();
  const restreamGate = usePermission('restream');
  const [filter, setFilter] = useState('');
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [confirming, setConfirming] = useState(false);
  const toast = useToast();
  const t = useTranslations('streams');
  const tPages = useTranslations('pages');

  const records = useMemo(() => streams.data ?? [], [streams.data]);
  const visible = useMemo(() => records.filter((r) => matchesFilter(r, filter)), [records, filter]);
  // Selection survives refreshes by key; streams that disappeared simply stop counting.
  const chosen = records.filter((r) => selected.has(streamKey(r)));
  const allVisibleSelected = visible.length > 0 && visible.every((r) => selected.has(streamKey(r)));

  const toggle = (key: string) =>
    setSelected((previous) => {
      const next = new Set(previous);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });
  const toggleAll = () =>
    setSelected((previous) => {
      const next = new Set(previous);
      for (const r of visible) {
        if (allVisibleSelected) next.delete(streamKey(r));
        else next.add(streamKey(r));
      }
      return next;
    });

  const send = () => {
    const asked = records.filter((r) => selected.has(streamKey(r)));
    restream.mutate(restreamRequestFor(records, selected), {
      onSuccess: (text) => {
        setRestreamed((previous) => new Map([...previous, ...asked.map((r) => [streamKey(r), r.stats.records_read] as const)]));
        // The agent's own words: accepted, and what happens now (being read again, or when it starts).
        toast('ok', text);
        setSelected(new Set());
        setConfirming(false);
      },
      onError: (cause) => {
        toast('error', t('failed', { error: errorText(cause) }));
        setConfirming(false);
      },
    });
  };

  return (
    <section className="page" aria-labelledby="streams-title">
      <div className="page-head">
        <h1 id="streams-title">{tPages('streams')}</h1>
        <div className="toolbar">
          <input type="search" className="filter" placeholder={t('filterPlaceholder')} aria-label={t('filterLabel')} value={filter} onChange={(e) => setFilter(e.target.value)} />
          <GatedButton gate={restreamGate} className="button button-primary" disabled={chosen.length === 0} onClick={() => setConfirming(true)}>
            {chosen.length > 0 ? t('restreamCount', { count: chosen.length }) : t('restream')}
          </GatedButton>
        </div>
      </div>
      {streams.isError && !streams.data && <ErrorNotice title={t('unavailable')} error={streams.error} />}
      {!streams.data && !streams.isError && <p className="muted">{t('loading')}</p>}
      {streams.data && records.length === 0 && <div className="card muted">{t('none')}</div>}
      {records.length > 0 && (
        <table className="table streams-table" aria-label={tPages('streams')}>
          {/* Fixed widths: columns do not jump as counts grow or the filter changes what is shown. */}
          <colgroup>
            {['check', 'stream', 'receiver', 'read', 'sent', 'waiting', 'errors', 'warnings', 'markers'].map((column) => (
              <col key={column} className={`col-${column}`} />
            ))}
          </colgroup>
          <thead>
            <tr>
              <th className="check">
                <input type="checkbox" aria-label={t('selectAll')} checked={allVisibleSelected} onChange={toggleAll} />
              </th>
              <th>{t('stream')}</th>
              <th>{t('receiver')}</th>
              <th className="align-right" title={t('readTitle')}>
                {t('read')}
              </th>
              <th className="align-right" title={t('sentTitle')}>
                {t('sent')}
              </th>
              <th className="align-right" title={t('waitingTitle')}>
                {t('waiting')}
              </th>
              <th className="align-right">{t('errors')}</th>
              <th className="align-right">{t('warnings')}</th>
              <th>{t('markers')}</th>
            </tr>
          </thead>
          <tbody>
            {visible.map((record) => (
              <StreamRow key={streamKey(record)} record={record} selected={selected.has(streamKey(record))} onToggle={() => toggle(streamKey(record))} restreamedFrom={restreamed.get(streamKey(record))} />
            ))}
            {visible.length === 0 && (
              <tr>
                <td colSpan={9} className="muted">
                  {t('noMatch', { filter })}
                </td>
              </tr>
            )}
          </tbody>
        </table>
      )}
      <ConfirmDialog
        open={confirming}
        title={t('confirmTitle')}
        confirmLabel={t('restream')}
        tone="danger"
        busy={restream.isPending}
        onCancel={() => setConfirming(false)}
        onConfirm={send}
      >
        <p>{t('confirmText')}</p>
        <ul className="restream-list">
          {Object.entries(restreamRequestFor(records, selected)).map(([receiver, list]) => (
            <li key={receiver}>
              <strong>{receiver}</strong>: {list.map((s) => `${s.asset}:${s.stream_type}`).join(', ')}
            </li>
          ))}
        </ul>
        <p className="muted">{t('duplicates')}</p>
        {restream.isError && <p className="error-text">{errorText(restream.error)}</p>}
      </ConfirmDialog>
    </section>
  );
}

/** A restream asked from this page: read again (the file being read, with its bar), or done. */
function RestreamState({ record, from }: { record: StreamRecord; from: number }) {
  const t = useTranslations('streams');
  if (record.stats.reading) return <span className="muted small" data-testid="restream-state">{t('restreaming')}</span>;
  if (record.stats.records_read > from) return <span className="small ok-text" data-testid="restream-state">{t('restreamDone')}</span>;
  return <span className="muted small" data-testid="restream-state">{t('restreamWaiting')}</span>;
}

/**
 * Sent or waiting per transmit: the number alone when the stream goes to one transmit, one line per
 * transmit when to several (a record sent to two transmits counts at each, so no sum is shown).
 */
function DeliveryCell({ record, column }: { record: StreamRecord; column: 'sent' | 'waiting' }) {
  const entries = Object.entries(record.stats.transmits);
  const now = Date.now();
  const t = useTranslations('streams');
  return (
    <td className="align-right numeric" data-column={column}>
      {entries.length === 0 && <span className="muted">–</span>}
      {entries.map(([transmit, delivery]) => (
        <div key={transmit} data-transmit={transmit} title={transmit}>
          {entries.length > 1 && <span className="muted small">{transmit}: </span>}
          {formatNumber(delivery[column])}
          {column === 'waiting' && delivery.oldest_waiting_at && (
            <span className="muted small" title={t('oldestTitle', { time: delivery.oldest_waiting_at })}>
              {' '}
              {t('oldest', { ago: ago(Date.parse(delivery.oldest_waiting_at), Math.max(now, Date.parse(delivery.oldest_waiting_at))) })}
            </span>
          )}
        </div>
      ))}
    </td>
  );
}

function StreamRow({ record, selected, onToggle, restreamedFrom }: { record: StreamRecord; selected: boolean; onToggle: () => void; restreamedFrom?: number }) {
  const errors = record.markers.filter((m) => m.level === 'error').length;
  const warnings = record.markers.length - errors;
  const t = useTranslations('streams');
  return (
    <tr className={selected ? 'selected' : undefined} data-stream={record.stream}>
      <td className="check">
        <input type="checkbox" aria-label={t('select', { stream: record.stream })} checked={selected} onChange={onToggle} />
      </td>
      <td className="mono">
        {record.stream}
        {restreamedFrom !== undefined && (
          <>
            {' '}
            <RestreamState record={record} from={restreamedFrom} />
          </>
        )}
        {record.stats.reading && <FileReadingBar reading={record.stats.reading} />}
        {record.stats.backfill && <BackfillNote backfill={record.stats.backfill} />}
        <QualityNote findings={record.quality ?? []} />
      </td>
      <td>{record.data_receiver}</td>
      <td className="align-right numeric" data-column="read">
        {formatNumber(record.stats.records_read)}
      </td>
      <DeliveryCell record={record} column="sent" />
      <DeliveryCell record={record} column="waiting" />
      <td className={`align-right count ${errors > 0 ? 'count-error' : ''}`}>{errors}</td>
      <td className={`align-right count ${warnings > 0 ? 'count-warning' : ''}`}>{warnings}</td>
      <td>
        {record.markers.length === 0 ? (
          <span className="muted">{t('noMarkers')}</span>
        ) : (
          <ul className="markers">
            {newestMarkers(record, 2).map((marker) => (
              <li key={`${marker.component}-${marker.timestamp}-${marker.category}`} className={`marker marker-${marker.level}`}>
                <span className="marker-meta">
                  {t(`levels.${marker.level}`)} · {marker.component_type} {marker.component} · <LocalTime value={marker.timestamp} />
                </span>
                <span className="marker-message">{agentTextOf(marker, marker.message)}</span>
              </li>
            ))}
            {record.markers.length > 2 && <li className="muted small">{t('moreMarkers', { count: record.markers.length - 2 })}</li>}
          </ul>
        )}
      </td>
    </tr>
  );
}
