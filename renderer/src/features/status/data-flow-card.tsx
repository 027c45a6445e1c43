import { useEffect, useState } from 'react';
import type { FlowHistory } from '../../../../shared/api/history.js';
import type { Status, StreamRecord } from '../../../../shared/api/resources.js';
import { BackfillNote } from '../../components/backfill-note.js';
import { FileReadingBar } from '../../components/file-reading-bar.js';
import { QualityNote } from '../../components/quality-note.js';
import { TimeChart } from '../../components/time-chart.js';
import { ago, parseAgentTime } from '../../format/time.js';
import { type Freshness, LATE_FACTOR, SILENT_FACTOR, deliveryProblem, duration, freshness, shownRate, streamSeries } from './data-flow.js';
import { SparkplugNodes } from './sparkplug-nodes.js';
import { formatNumber } from '../../format/locale.js';
import { rowReason } from './row-reason.js';
import { useTranslations } from 'use-intl';
import { text } from '../../i18n/language.js';

/** The sparkline covers the last hour. */
export const SPARKLINE_MINUTES = 60;

const FRESHNESS_TEXT = { stale: 'dataFlow.stale', dead: 'dataFlow.dead', none: 'dataFlow.nothing' } as const;

/** Why a stream has its colour, in words: against its expected interval when one is known. */
function freshnessText(state: Freshness, stats: StreamRecord['stats']): string {
  const expected = stats.expected_every_seconds;
  if (state === 'fresh') return '';
  if (expected === null || (state !== 'stale' && state !== 'dead')) return text(FRESHNESS_TEXT[state]);
  const usual = `${duration(expected)} (${stats.expected_from === 'configuration' ? text('dataFlow.fromConfiguration') : text('dataFlow.fromHistoryLearned')})`;
  return state === 'stale' ? text('dataFlow.lateAgainst', { factor: LATE_FACTOR, usual }) : text('dataFlow.silentAgainst', { factor: SILENT_FACTOR, usual });
}

/** Ticks once a second, so that "3 s ago" stays true between two refreshes. */
function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/**
 * One row per stream: is data arriving (age of the newest record, coloured against the receiver's
 * poll interval), how fast (records/min, a sparkline of the last hour), and the file being read.
 */
export function DataFlowCard({
  streams,
  services,
  transmits,
  polls,
  history,
}: {
  streams: readonly StreamRecord[];
  services: Status['agent']['services'];
  transmits: Status['last_data_transmit'];
  polls: ReadonlyMap<string, number>;
  history: FlowHistory | undefined;
}) {
  const now = useNow();
  const t = useTranslations('dataFlow');
  return (
    <div className="card data-flow">
      <h2 id="data-flow-title">{t('title')}</h2>
      {streams.length === 0 ? (
        <p className="muted">{t('none')}</p>
      ) : (
        <table className="table data-flow-table" aria-labelledby="data-flow-title">
          {/* Fixed widths: columns do not jump as ages and rates change every few seconds. */}
          <colgroup>
            {['asset', 'type', 'receiver', 'last', 'rate', 'hour'].map((column) => (
              <col key={column} className={`col-${column}`} />
            ))}
          </colgroup>
          <thead>
            <tr>
              <th scope="col">{t('asset')}</th>
              <th scope="col">{t('streamType')}</th>
              <th scope="col">{t('receiver')}</th>
              <th scope="col">{t('lastRecord')}</th>
              <th scope="col" className="align-right numeric">{t('perMinute')}</th>
              <th scope="col">{t('lastHour')}</th>
            </tr>
          </thead>
          <tbody>
            {streams.map((stream) => {
              const running = services[`receiver:${stream.data_receiver}`]?.status === 'running';
              const arrived = freshness(stream.stats.last_record_at, now, polls.get(stream.data_receiver) ?? 5, running, stream.stats.expected_every_seconds);
              const stuck = deliveryProblem(stream.stats.transmits, transmits, services, now);
              const reason = rowReason(stream.markers, stuck);
              // Read but not getting out is amber too, whatever the age of the newest record.
              const state: Freshness = stuck && (arrived === 'fresh' || arrived === 'none') ? 'stale' : arrived;
              const series = history ? streamSeries(history, stream.data_receiver, stream.asset, stream.stream_type, SPARKLINE_MINUTES) : undefined;
              const id = `${stream.data_receiver}/${stream.stream}`;
              const lastAt = stream.stats.last_record_at;
              const dataAt = stream.stats.last_record_timestamp === null ? Number.NaN : parseAgentTime(stream.stats.last_record_timestamp);
              return (
                <tr key={id} data-flow-stream={id} data-delivery={stuck ? 'stuck' : 'ok'} data-quality={(stream.quality ?? []).length > 0 ? 'findings' : 'ok'}>
                  <td>{stream.asset}</td>
                  <td>{stream.stream_type}</td>
                  <td>{stream.data_receiver}</td>
                  <td>
                    {lastAt && <span className="muted small">{t('arrived')}</span>}
                    <span className={`freshness freshness-${state}`} data-freshness={state} title={(stuck && arrived === 'fresh' ? '' : freshnessText(arrived, stream.stats)) || undefined} data-last-record-at={lastAt ?? ''}>
                      {lastAt ? ago(Date.parse(lastAt), Math.max(now, Date.parse(lastAt))) : t('noneYet')}
                    </span>
                    {Number.isFinite(dataAt) && (
                      <div className="muted small" data-testid="data-age" title={t('dataStampTitle', { stamp: stream.stats.last_record_timestamp ?? '' })}>
                        {t('dataFrom', { ago: ago(dataAt, Math.max(now, dataAt)) })}
                      </div>
                    )}
                    {reason && (
                      <div className="small freshness-stale" data-testid={reason.kind === 'own' ? 'row-problem' : 'delivery-problem'} title={reason.detail}>
                        {reason.text}
                      </div>
                    )}
                    {stream.stats.reading && <FileReadingBar reading={stream.stats.reading} />}
                    {stream.stats.backfill && <BackfillNote backfill={stream.stats.backfill} />}
                    <QualityNote findings={stream.quality ?? []} />
                  </td>
                  <td className="align-right numeric">
                    {shownRate(stream.stats.records_per_minute, running)}
                    {Boolean(stream.stats.backfilled_per_minute) && (
                      <div className="muted small" data-testid="backfilled-per-minute" title={t('fromHistoryTitle')}>
                        {t('fromHistory', { count: formatNumber(stream.stats.backfilled_per_minute!) })}
                      </div>
                    )}
                  </td>
                  <td className="sparkline-cell" data-active-minutes={series ? series.values.filter((v) => v !== null && v > 0).length : 0}>
                    {series && (
                      <TimeChart sparkline label={t('sparkline', { stream: stream.stream })} times={series.times} series={[{ label: t('seriesLabel'), color: 'var(--accent)', values: series.values }]} height={32} testId="flow-sparkline" />
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      <SparkplugNodes transmits={transmits} />
    </div>
  );
}
