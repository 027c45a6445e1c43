import { useTranslations } from 'use-intl';
import type { FlowHistory } from '../../../../shared/api/history.js';
import { agentTextOf } from '../../i18n/agent-text.js';
import type { StreamRecord } from '../../../../shared/api/resources.js';
import { LocalTime } from '../../components/local-time.js';

/**
 * The plant's open findings of the data-quality watch (docs/data-quality.md): values stuck or out
 * of range, gaps, clocks ahead, changed columns, one row each, oldest first.
 */
export function QualityCard({ streams, history }: { streams: readonly StreamRecord[]; history: FlowHistory | undefined }) {
  // Findings that opened and closed within the history's window (the chart's hour): when they happened.
  const closed = (history?.quality ?? []).filter((f) => f.until !== null).sort((a, b) => Date.parse(b.until!) - Date.parse(a.until!));
  const seen = new Set<string>();
  const rows = streams
    .filter((stream) => !seen.has(stream.stream) && seen.add(stream.stream))
    .flatMap((stream) => (stream.quality ?? []).map((finding) => ({ stream, finding })))
    .sort((a, b) => Date.parse(a.finding.since) - Date.parse(b.finding.since));
  const t = useTranslations('quality');
  return (
    <div className="card quality-card" data-testid="quality-panel">
      <h2 id="quality-title">{t('title')}</h2>
      {rows.length === 0 ? (
        <p className="muted">{t('none')}</p>
      ) : (
        <table className="table" aria-labelledby="quality-title">
          <thead>
            <tr>
              <th scope="col">{t('stream')}</th>
              <th scope="col">{t('check')}</th>
              <th scope="col">{t('what')}</th>
              <th scope="col">{t('since')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map(({ stream, finding }) => (
              <tr key={`${stream.stream}/${finding.check}/${finding.field ?? ''}`} data-quality-row={`${stream.stream}/${finding.check}`}>
                <td>{stream.stream}</td>
                <td>
                  <span className="pill pill-warning">{t(`checks.${finding.check}`)}</span>
                </td>
                <td>
                  {agentTextOf(finding, finding.detail)}
                  {/* What the check means and what to look at: "stuck" alone left the plant engineer guessing (issue 56). */}
                  <p className="muted small quality-explanation" data-testid="quality-explanation">
                    {t(`explain.${finding.check}`)}
                  </p>
                </td>
                <td>
                  <LocalTime value={finding.since} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {closed.length > 0 && (
        <details className="small" data-testid="quality-closed">
          <summary>{t('closed', { count: closed.length })}</summary>
          <ul>
            {closed.slice(0, 20).map((f) => (
              <li key={`${f.asset}:${f.stream_type}/${f.check}/${f.field ?? ''}/${f.since}`}>
                {f.asset}:{f.stream_type} <span className="pill pill-quiet">{t(`checks.${f.check}`)}</span> {agentTextOf(f, f.detail)} (<LocalTime value={f.since} /> – <LocalTime value={f.until} />)
              </li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}
