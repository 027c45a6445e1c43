import { agentTextOf } from '../../i18n/agent-text.js';
import { useMemo } from 'react';
import type { KpiEvaluation } from '../../../../shared/kpi/api.js';
import { TimeChart, type ChartSeries } from '../../components/time-chart.js';
import { chartGeometry, formatValue } from './chart-geometry.js';
import { useTranslations } from 'use-intl';
import { text } from '../../i18n/language.js';

const COLORS = ['var(--accent)', 'var(--series-2)', 'var(--series-3)', '#2a9d8f', '#c2417f', '#6b7c8d'];

/** The KPI per machine over the preview window, with the good and bad threshold bands. */
export function KpiChart({ evaluation }: { evaluation: KpiEvaluation }) {
  const geometry = useMemo(() => chartGeometry(evaluation), [evaluation]);
  const range = useMemo(() => [geometry.min, geometry.max] as const, [geometry]);
  const xRange = useMemo(() => [Date.parse(evaluation.start), Date.parse(evaluation.end)] as const, [evaluation]);
  // Each value sits in the middle of its bin.
  const times = useMemo(() => (evaluation.machines[0]?.bins ?? []).map((bin) => (Date.parse(bin.start) + Date.parse(bin.end)) / 2), [evaluation]);
  const series = useMemo<ChartSeries[]>(
    () => evaluation.machines.map((m, i) => ({ label: m.machine, color: COLORS[i % COLORS.length]!, values: m.bins.map((b) => b.value), points: true })),
    [evaluation],
  );
  const thresholds = useMemo(
    () => [
      ...(evaluation.good_threshold === null ? [] : [{ kind: 'good' as const, value: evaluation.good_threshold }]),
      ...(evaluation.bad_threshold === null ? [] : [{ kind: 'bad' as const, value: evaluation.bad_threshold }]),
    ],
    [evaluation],
  );
  const points = series.reduce((n, s) => n + s.values.filter((v) => v !== null).length, 0);
  const noValue = evaluation.machines.filter((m) => m.bins.every((b) => b.value === null));
  const above = geometry.direction === 'positive';
  const t = useTranslations('kpi');
  return (
    <figure className="kpi-chart">
      <TimeChart
        label={t('chartLabel', { name: evaluation.display_name, points, machines: evaluation.machines.length })}
        times={times}
        series={series}
        yRange={range}
        unit={evaluation.unit}
        xRange={xRange}
        bands={geometry.bands}
        thresholds={thresholds}
        height={240}
        testId="kpi-chart"
        title={t('chartTitle', { name: evaluation.display_name, unit: evaluation.unit ? ` (${evaluation.unit})` : '', bin: binWords(evaluation.bin_size_seconds) })}
        // The machines and the good/bad bands are named below, with the bands' thresholds.
        legend={false}
      />
      <figcaption className="chart-legend">
        {evaluation.machines.map((m, i) => (
          <span key={m.machine} className="chart-legend-item">
            <span className="chart-legend-swatch" style={{ background: COLORS[i % COLORS.length] }} aria-hidden="true" />
            {m.machine}
          </span>
        ))}
        {geometry.bands.map((band) => (
          <span key={band.kind} className={`chart-legend-item kpi-band-${band.kind}`}>
            <span className="chart-legend-band" style={{ background: band.kind === 'good' ? 'var(--ok-bg)' : 'var(--error-bg)' }} aria-hidden="true" />
            {band.kind === 'good' ? t('good') : t('bad')} {(band.kind === 'good') === above ? '≥' : '≤'} {formatValue(band.kind === 'good' ? evaluation.good_threshold : evaluation.bad_threshold, evaluation.unit)}
          </span>
        ))}
      </figcaption>
      {noValue.length > 0 && (
        <ul className="kpi-reasons">
          {noValue.map((m) => (
            <li key={m.machine} className="muted small">
              <strong>{t('noValue', { machine: m.machine })}</strong> {m.reason ? agentTextOf(m, m.reason, 'reason_') : t('noBin')}
            </li>
          ))}
        </ul>
      )}
    </figure>
  );
}

/** "1 h", "15 min", "30 s": the bin size as the chart's title says it. */
function binWords(seconds: number): string {
  if (seconds % 86_400 === 0) return `${seconds / 86_400} ${text('kpi.dayUnit')}`;
  if (seconds % 3600 === 0) return `${seconds / 3600} h`;
  if (seconds % 60 === 0) return `${seconds / 60} min`;
  return `${seconds} s`;
}
