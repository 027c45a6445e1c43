import type { KpiEvaluation } from '../../../../shared/kpi/api.js';
import { chartGeometry, formatValue, segments } from './chart-geometry.js';

const WIDTH = 760;
const HEIGHT = 240;
const PAD = { left: 56, right: 16, top: 12, bottom: 28 };
const COLORS = ['var(--accent)', '#8a5cd6', '#c2571a', '#2a9d8f', '#b83280', '#5a6b7c'];

const time = (iso: string) => Date.parse(iso);
const label = (iso: string) => `${iso.slice(5, 10)} ${iso.slice(11, 16)}`;

/** The KPI over time per machine, with the good and bad threshold bands. Inline SVG, no library. */
export function KpiChart({ evaluation }: { evaluation: KpiEvaluation }) {
  const geometry = chartGeometry(evaluation);
  const t0 = time(evaluation.start);
  const t1 = time(evaluation.end);
  const x = (ms: number) => PAD.left + ((ms - t0) / Math.max(1, t1 - t0)) * (WIDTH - PAD.left - PAD.right);
  const y = (v: number) => PAD.top + (1 - (v - geometry.min) / (geometry.max - geometry.min)) * (HEIGHT - PAD.top - PAD.bottom);
  const middle = (bin: { start: string; end: string }) => (time(bin.start) + time(bin.end)) / 2;
  const points = evaluation.machines.reduce((n, m) => n + m.bins.filter((b) => b.value !== null).length, 0);
  const thresholds = [
    ...(evaluation.good_threshold === null ? [] : [{ kind: 'good', value: evaluation.good_threshold }]),
    ...(evaluation.bad_threshold === null ? [] : [{ kind: 'bad', value: evaluation.bad_threshold }]),
  ];
  return (
    <figure className="kpi-chart">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={`${evaluation.display_name} preview: ${points} values`} data-testid="kpi-chart" data-points={points}>
        {geometry.bands.map((band) => (
          <rect key={band.kind} className={`kpi-band kpi-band-${band.kind}`} x={PAD.left} width={WIDTH - PAD.left - PAD.right} y={y(band.to)} height={Math.max(0, y(band.from) - y(band.to))}>
            <title>{band.kind === 'good' ? 'Good' : 'Bad'}</title>
          </rect>
        ))}
        {thresholds.map((t) => (
          <g key={t.kind}>
            <line className={`kpi-threshold kpi-threshold-${t.kind}`} x1={PAD.left} x2={WIDTH - PAD.right} y1={y(t.value)} y2={y(t.value)} />
            <text className="kpi-axis-label" x={WIDTH - PAD.right - 4} y={y(t.value) - 4} textAnchor="end">
              {t.kind} {formatValue(t.value)}
            </text>
          </g>
        ))}
        <line className="kpi-axis" x1={PAD.left} x2={PAD.left} y1={PAD.top} y2={HEIGHT - PAD.bottom} />
        <line className="kpi-axis" x1={PAD.left} x2={WIDTH - PAD.right} y1={HEIGHT - PAD.bottom} y2={HEIGHT - PAD.bottom} />
        <text className="kpi-axis-label" x={PAD.left - 6} y={PAD.top + 10} textAnchor="end">{formatValue(geometry.max)}</text>
        <text className="kpi-axis-label" x={PAD.left - 6} y={HEIGHT - PAD.bottom} textAnchor="end">{formatValue(geometry.min)}</text>
        <text className="kpi-axis-label" x={PAD.left} y={HEIGHT - 8}>{label(evaluation.start)}</text>
        <text className="kpi-axis-label" x={WIDTH - PAD.right} y={HEIGHT - 8} textAnchor="end">{label(evaluation.end)} UTC</text>
        {evaluation.machines.map((series, i) => {
          const color = COLORS[i % COLORS.length];
          const located = series.bins.map((bin) => (bin.value === null ? null : { x: x(middle(bin)), y: y(bin.value), bin }));
          return (
            <g key={series.machine} style={{ color }}>
              {segments(located).map((run, k) => (
                <polyline key={k} className="kpi-line" points={run.map((p) => `${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(' ')} />
              ))}
              {located.map((p, k) =>
                p ? (
                  <circle key={k} className={`kpi-point kpi-point-${p.bin.status}`} cx={p.x} cy={p.y} r={3}>
                    <title>{`${series.machine} ${label(p.bin.start)}: ${formatValue(p.bin.value, evaluation.unit)} (${p.bin.status})`}</title>
                  </circle>
                ) : null,
              )}
            </g>
          );
        })}
      </svg>
      <figcaption className="kpi-legend">
        {evaluation.machines.map((series, i) => (
          <span key={series.machine} className="kpi-legend-item">
            <span className="kpi-legend-swatch" style={{ background: COLORS[i % COLORS.length] }} aria-hidden="true" />
            {series.machine}
          </span>
        ))}
        {points === 0 && <span className="muted">No values in this range: are records of these machines arriving, with the mapped fields?</span>}
      </figcaption>
    </figure>
  );
}
