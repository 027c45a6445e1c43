/** Value axis and threshold bands of the KPI preview chart (pure, so that it is tested without a DOM). */
import type { KpiEvaluation } from '../../../../shared/kpi/api.js';
import { formatNumber } from '../../format/locale.js';
import { text } from '../../i18n/language.js';

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

/** 1, 2 or 5 times a power of ten: the step of axis ticks people read at a glance. */
function niceStep(span: number, divisions: number): number {
  const raw = span / divisions;
  const power = 10 ** Math.floor(Math.log10(raw));
  const factor = raw / power;
  return (factor <= 1 ? 1 : factor <= 2 ? 2 : factor <= 5 ? 5 : 10) * power;
}

/**
 * The y range: 0–100 for a percentage (wider only when a value is beyond), otherwise the values and
 * thresholds with a margin, rounded outwards to nice numbers (never −8 to 108).
 */
export function chartGeometry(evaluation: Pick<KpiEvaluation, 'machines' | 'good_threshold' | 'bad_threshold' | 'directionality' | 'unit'>): ChartGeometry {
  const values = evaluation.machines.flatMap((m) => m.bins.map((b) => b.value)).filter((v): v is number => v !== null);
  const good = evaluation.good_threshold;
  const bad = evaluation.bad_threshold;
  const marks = [...values, ...(good === null ? [] : [good]), ...(bad === null ? [] : [bad])];
  let min: number;
  let max: number;
  if (evaluation.unit?.trim() === '%') {
    min = Math.min(0, ...marks);
    max = Math.max(100, ...marks);
    const step = niceStep(max - min, 10);
    min = Math.floor(min / step) * step;
    max = Math.ceil(max / step) * step;
  } else {
    min = marks.length > 0 ? Math.min(...marks) : 0;
    max = marks.length > 0 ? Math.max(...marks) : 1;
    if (min === max) {
      min -= Math.abs(min) > 1 ? Math.abs(min) * 0.1 : 1;
      max += Math.abs(max) > 1 ? Math.abs(max) * 0.1 : 1;
    }
    const step = niceStep(max - min, 5);
    // A value that sits on the edge gets room; zero stays the floor of values that are all positive.
    min = min >= 0 && min - step < 0 ? 0 : Math.floor((min - step / 2) / step) * step;
    max = Math.ceil((max + step / 2) / step) * step;
  }
  const direction = evaluation.directionality ?? (good !== null && bad !== null && good < bad ? 'negative' : 'positive');
  const bands: Band[] = [];
  if (good !== null) bands.push(direction === 'positive' ? { kind: 'good', from: good, to: max } : { kind: 'good', from: min, to: good });
  if (bad !== null) bands.push(direction === 'positive' ? { kind: 'bad', from: min, to: bad } : { kind: 'bad', from: bad, to: max });
  return { min, max, bands: bands.filter((b) => b.to > b.from), direction };
}

/**
 * A short number for axis labels and tooltips, as the console's locale writes it: whole from 1000
 * on, else four significant digits ("1,500", "66.67 %"; German "1.500", "66,67 %").
 */
export function formatValue(value: number | null, unit: string | null = null, locale?: string): string {
  if (value === null) return text('kpiChart.noValue');
  const whole = Math.abs(value) >= 1000 || Number.isInteger(value);
  const decimals = whole ? 0 : Math.max(0, 3 - Math.floor(Math.log10(Math.abs(value))));
  const shown = formatNumber(value, { maximumFractionDigits: Math.min(decimals, 10), ...(locale ? { locale } : {}) });
  return unit ? `${shown} ${unit}` : shown;
}
