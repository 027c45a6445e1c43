import { useEffect, useState } from 'react';
import type { FlowHistory } from '../../../../shared/api/history.js';
import type { Status, StreamRecord } from '../../../../shared/api/resources.js';
import { BackfillNote } from '../../components/backfill-note.js';
import { FileReadingBar } from '../../components/file-reading-bar.js';
import { QualityNote } from '../../components/quality-note.js';
import { TimeChart } from '../../components/time-chart.js';
import { ago } from '../../format/time.js';
import { type Freshness, freshness, streamSeries } from './data-flow.js';
import { SparkplugNodes } from './sparkplug-nodes.js';

/** The sparkline covers the last hour. */
export const SPARKLINE_MINUTES = 60;

const FRESHNESS_TEXT: Record<Freshness, string> = {
  fresh: '',
  stale: 'late: no record for more than 5 poll intervals',
  dead: 'no record for over an hour, or its receiver is not running',
  none: 'nothing read since the agent started',
};

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
  polls,
  history,
  transmits,
}: {
  streams: readonly StreamRecord[];
  services: Status['agent']['services'];
  polls: ReadonlyMap<string, number>;
  history: FlowHistory | undefined;
  /** For the Sparkplug edge nodes' birth state under the streams. */
  transmits?: Status['last_data_transmit'];
}) {
  const now = useNow();
  return (
    <div className="card data-flow">
      <h2 id="data-flow-title">Data flow</h2>
      {streams.length === 0 ? (
        <p className="muted">No streams are configured.</p>
      ) : (
        <table className="table data-flow-table" aria-labelledby="data-flow-title">
          <thead>
            <tr>
              <th scope="col">Asset</th>
              <th scope="col">Stream type</th>
              <th scope="col">Receiver</th>
              <th scope="col">Last record</th>
              <th scope="col" className="align-right numeric">Records/min</th>
              <th scope="col">Last hour</th>
            </tr>
          </thead>
          <tbody>
            {streams.map((stream) => {
              const running = services[`receiver:${stream.data_receiver}`]?.status === 'running';
              const state = freshness(stream.stats.last_record_at, now, polls.get(stream.data_receiver) ?? 5, running);
              const series = history ? streamSeries(history, stream.data_receiver, stream.asset, stream.stream_type, SPARKLINE_MINUTES) : undefined;
              const id = `${stream.data_receiver}/${stream.stream}`;
              return (
                <tr key={id} data-flow-stream={id} data-quality={(stream.quality ?? []).length > 0 ? 'findings' : 'ok'}>
                  <td>{stream.asset}</td>
                  <td>{stream.stream_type}</td>
                  <td>{stream.data_receiver}</td>
                  <td>
                    <span className={`freshness freshness-${state}`} data-freshness={state} title={FRESHNESS_TEXT[state] || undefined} data-last-record-at={stream.stats.last_record_at ?? ''}>
                      {stream.stats.last_record_at ? ago(Date.parse(stream.stats.last_record_at), Math.max(now, Date.parse(stream.stats.last_record_at))) : 'none yet'}
                    </span>
                    {stream.stats.reading && <FileReadingBar reading={stream.stats.reading} />}
                    {stream.stats.backfill && <BackfillNote backfill={stream.stats.backfill} />}
                    <QualityNote findings={stream.quality ?? []} />
                  </td>
                  <td className="align-right numeric">
                    {stream.stats.records_per_minute.toLocaleString('en-US')}
                    {Boolean(stream.stats.backfilled_per_minute) && (
                      <div className="muted small" data-testid="backfilled-per-minute" title="Records read from the OPC UA server's history (history_backfill), not live">
                        {stream.stats.backfilled_per_minute!.toLocaleString('en-US')} from history
                      </div>
                    )}
                  </td>
                  <td className="sparkline-cell" data-active-minutes={series ? series.values.filter((v) => v > 0).length : 0}>
                    {series && (
                      <TimeChart sparkline label={`Records read per minute by ${stream.stream} over the last hour`} times={series.times} series={[{ label: 'records/min', color: 'var(--accent)', values: series.values }]} height={32} testId="flow-sparkline" />
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
