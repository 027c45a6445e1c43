/** A small inline line chart of 0..100 values; newest on the right. */
export function Sparkline({ values, label, width = 160, height = 36 }: { values: readonly number[]; label: string; width?: number; height?: number }) {
  if (values.length < 2) return <svg className="sparkline" width={width} height={height} role="img" aria-label={`${label}: collecting samples`} />;
  const step = width / (values.length - 1);
  const y = (v: number) => height - 2 - (Math.max(0, Math.min(100, v)) / 100) * (height - 4);
  const points = values.map((v, i) => `${(i * step).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
  return (
    <svg className="sparkline" width={width} height={height} viewBox={`0 0 ${width} ${height}`} role="img" aria-label={`${label}: last ${values.length} samples`}>
      <polygon className="sparkline-area" points={`0,${height} ${points} ${width},${height}`} />
      <polyline className="sparkline-line" points={points} fill="none" />
    </svg>
  );
}
