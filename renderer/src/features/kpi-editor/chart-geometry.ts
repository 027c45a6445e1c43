/** Scales and threshold bands of the KPI preview chart (pure, so that it is tested without a DOM). */
import type { KpiEvaluation } from '../../../../shared/kpi/api.js';

export interface Band {
  kind: 'good' | 'bad';
  from: number;
  to: number;
}

export interface ChartGeometry {
  min: number;
  max: number;
  /** Value ranges shaded as good or bad, clipped to [min, max]. */
  bands: Band[];
  direction: 'positive' | 'negative';
}

export function chartGeometry(evaluation: Pick<KpiEvaluation, 'machines' | 'good_threshold' | 'bad_threshold' | 'directionality'>): ChartGeometry {
  const values = evaluation.machines.flatMap((m) => m.bins.map((b) => b.value)).filter((v): v is number => v !== null);
  const good = evaluation.good_threshold;
  const bad = evaluation.bad_threshold;
  const marks = [...values, ...(good === null ? [] : [good]), ...(bad === null ? [] : [bad])];
  let min = marks.length > 0 ? Math.min(...marks) : 0;
  let max = marks.length > 0 ? Math.max(...marks) : 1;
  if (min === max) {
    min -= 1;
    max += 1;
  }
  const pad = (max - min) * 0.08;
  min -= pad;
  max += pad;
  const direction = evaluation.directionality ?? (good !== null && bad !== null && good < bad ? 'negative' : 'positive');
  const bands: Band[] = [];
  if (good !== null) bands.push(direction === 'positive' ? { kind: 'good', from: good, to: max } : { kind: 'good', from: min, to: good });
  if (bad !== null) bands.push(direction === 'positive' ? { kind: 'bad', from: min, to: bad } : { kind: 'bad', from: bad, to: max });
  return { min, max, bands: bands.filter((b) => b.to > b.from), direction };
}

/** Runs of consecutive non-null points: a gap in the data is a gap in the line. */
export function segments<T>(points: readonly (T | null)[]): T[][] {
  const out: T[][] = [];
  let current: T[] = [];
  for (const point of points) {
    if (point === null) {
      if (current.length > 0) out.push(current);
      current = [];
    } else current.push(point);
  }
  if (current.length > 0) out.push(current);
  return out;
}

/** A short number for axis labels and tooltips. */
export function formatValue(value: number | null, unit: string | null = null): string {
  if (value === null) return 'no value';
  const text = Math.abs(value) >= 1000 || Number.isInteger(value) ? value.toFixed(0) : value.toPrecision(4).replace(/\.?0+$/, '');
  return unit ? `${text} ${unit}` : text;
}
