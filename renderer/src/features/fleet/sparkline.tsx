/** Records per minute over the last hour as a small line: the shape, not the numbers (the title has them). */
import { text } from '../../i18n/language.js';
import { formatNumber } from '../../format/locale.js';
export function Sparkline({ values, label }: { values: readonly number[] | undefined; label: string }) {
  if (!values) return <span className="muted">…</span>;
  const max = Math.max(1, ...values);
  const width = 120;
  const height = 24;
  const points = values.map((v, i) => `${((i / Math.max(1, values.length - 1)) * width).toFixed(1)},${(height - 1 - (v / max) * (height - 2)).toFixed(1)}`).join(' ');
  const last = values.at(-2) ?? 0;
  return (
    <svg className="sparkline" width={width} height={height} role="img" aria-label={text('agents.sparklineValues', { label, last: formatNumber(last), max: formatNumber(max) })}>
      <polyline points={points} fill="none" stroke="currentColor" strokeWidth="1.5" />
    </svg>
  );
}
