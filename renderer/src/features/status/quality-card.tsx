import type { FlowHistory } from '../../../../shared/api/history.js';
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
  return (
    <div className="card quality-card" data-testid="quality-panel">
      <h2 id="quality-title">Quality</h2>
      {rows.length === 0 ? (
        <p className="muted">No open findings: no value stuck or out of range, no gap, no clock ahead, no changed columns.</p>
      ) : (
        <table className="table" aria-labelledby="quality-title">
          <thead>
            <tr>
              <th scope="col">Stream</th>
              <th scope="col">Check</th>
              <th scope="col">What</th>
              <th scope="col">Since</th>
            </tr>
          </thead>
          <tbody>
            {rows.map(({ stream, finding }) => (
              <tr key={`${stream.stream}/${finding.check}/${finding.field ?? ''}`} data-quality-row={`${stream.stream}/${finding.check}`}>
                <td>{stream.stream}</td>
                <td>
                  <span className="pill pill-warning">{finding.check}</span>
                </td>
                <td>{finding.detail}</td>
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
          <summary>{closed.length} closed in the last hour</summary>
          <ul>
            {closed.slice(0, 20).map((f) => (
              <li key={`${f.asset}:${f.stream_type}/${f.check}/${f.field ?? ''}/${f.since}`}>
                {f.asset}:{f.stream_type} <span className="pill pill-quiet">{f.check}</span> {f.detail} (<LocalTime value={f.since} /> – <LocalTime value={f.until} />)
              </li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}
