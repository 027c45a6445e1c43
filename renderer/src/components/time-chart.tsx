/**
 * The console's one chart: time series drawn by uPlot (bundled, no network), with local-time ticks
 * that fit the range, an optional fixed value range (0–100 for percentages), shaded value bands and
 * threshold lines, a title and a legend, and a tooltip with the values under the pointer. A null
 * value is a gap (no data), never drawn as a line across it. Colours come from the theme's CSS
 * variables, so both themes read well.
 */
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { useDarkMode } from '../app/use-color-scheme.js';
import { timeTicks, TOOLTIP_TIME, valueLabel } from './chart-labels.js';
import { text } from '../i18n/language.js';

export interface ChartSeries {
  label: string;
  /** A colour or a CSS variable, e.g. var(--accent). */
  color: string;
  values: readonly (number | null)[];
  /** Draw each value as a point too (few points, gaps between them). */
  points?: boolean;
}

export interface ChartBand {
  kind: 'good' | 'bad';
  from: number;
  to: number;
}

export interface TimeChartProps {
  /** What the chart shows, for screen readers (the canvas itself is not readable). */
  label: string;
  /** Epoch milliseconds, ascending; one per value of each series. */
  times: readonly number[];
  series: readonly ChartSeries[];
  /** Value range of the y axis; default: fitted to the values. */
  yRange?: readonly [number, number];
  /** Shown after the y axis values (e.g. %). */
  unit?: string | null;
  /** The x range (epoch ms), when it is wider than the values (a preview window). */
  xRange?: readonly [number, number];
  bands?: readonly ChartBand[];
  thresholds?: readonly { kind: 'good' | 'bad'; value: number }[];
  height?: number;
  testId?: string;
  /** A sparkline: the line alone, no axes, grid or cursor (a table cell). */
  sparkline?: boolean;
  /** Shown above the chart. */
  title?: string;
  /** The series named under the chart (default); off where the page draws its own legend. */
  legend?: boolean;
}

/** Tick steps of the time axis in seconds: whole seconds at least, then minutes, hours, days. */
const TIME_STEPS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10_800, 21_600, 43_200, 86_400, 2 * 86_400, 7 * 86_400, 14 * 86_400, 30 * 86_400];


const BAND_FILL = { good: '--ok-bg', bad: '--error-bg' } as const;
const LINE = { good: '--ok', bad: '--error' } as const;

const NONE: readonly never[] = [];

export function TimeChart({ label, times, series, yRange, unit, xRange, bands = NONE, thresholds = NONE, height = 200, testId, sparkline = false, title, legend = true }: TimeChartProps) {
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  const scheme = useDarkMode() ? 'dark' : 'light';
  /** Where the pointer is over the plot (CSS px), so that a redraw keeps its tooltip. */
  const pointer = useRef<{ left: number; top: number } | null>(null);

  useLayoutEffect(() => {
    const element = box.current;
    if (!element) return;
    setWidth(element.clientWidth);
    const observer = new ResizeObserver(() => setWidth(element.clientWidth));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    const element = box.current;
    if (!element || width === 0) return;
    const css = getComputedStyle(element);
    const color = (value: string) => (value.startsWith('var(') ? css.getPropertyValue(value.slice(4, -1)).trim() : value.startsWith('--') ? css.getPropertyValue(value).trim() : value);
    const axis = { stroke: color('--muted'), grid: { stroke: color('--border'), width: 1 }, ticks: { stroke: color('--border'), width: 1 }, font: '11px system-ui, sans-serif' };
    const options: uPlot.Options = {
      width,
      height,
      legend: { show: false },
      cursor: sparkline ? { show: false } : { points: { size: 6 } },
      ...(sparkline ? { padding: [2, 0, 2, 0] as uPlot.Padding } : {}),
      scales: {
        x: { time: true, ...(xRange ? { range: [xRange[0] / 1000, xRange[1] / 1000] as [number, number] } : {}) },
        y: yRange ? { range: [yRange[0], yRange[1]] } : { auto: true },
      },
      axes: sparkline
        ? [{ show: false }, { show: false }]
        : [
            { ...axis, space: 70, incrs: TIME_STEPS, values: (_u, ticks, _axis, _space, step) => timeTicks(ticks, step) },
            { ...axis, size: 56, values: (_u, ticks) => ticks.map((v) => valueLabel(v, unit)) },
          ],
      series: [
        {},
        ...series.map((s) => ({
          label: s.label,
          stroke: color(s.color),
          width: 1.8,
          spanGaps: false,
          points: { show: s.points ?? false, size: 5, fill: color(s.color) },
        })),
      ],
      hooks: {
        ...(sparkline
          ? {}
          : {
              setCursor: [
                (u: uPlot) => {
                  const { left, top } = u.cursor;
                  pointer.current = left !== undefined && top !== undefined && left >= 0 ? { left, top } : null;
                  showTooltip(u, series, unit, series.map((s) => color(s.color)));
                },
              ],
            }),
        // Bands under the lines, threshold lines over the grid.
        drawClear: [
          (u) => {
            const { ctx, bbox } = u;
            for (const band of bands) {
              const top = u.valToPos(band.to, 'y', true);
              const bottom = u.valToPos(band.from, 'y', true);
              const y0 = Math.max(bbox.top, Math.min(top, bottom));
              const y1 = Math.min(bbox.top + bbox.height, Math.max(top, bottom));
              if (y1 <= y0) continue;
              ctx.fillStyle = color(BAND_FILL[band.kind]);
              ctx.fillRect(bbox.left, y0, bbox.width, y1 - y0);
            }
          },
        ],
        draw: [
          (u) => {
            const { ctx, bbox } = u;
            ctx.save();
            ctx.setLineDash([4, 4]);
            ctx.lineWidth = 1;
            for (const t of thresholds) {
              const y = u.valToPos(t.value, 'y', true);
              if (y < bbox.top || y > bbox.top + bbox.height) continue;
              ctx.strokeStyle = color(LINE[t.kind]);
              ctx.beginPath();
              ctx.moveTo(bbox.left, y);
              ctx.lineTo(bbox.left + bbox.width, y);
              ctx.stroke();
            }
            ctx.restore();
          },
        ],
      },
    };
    const data: uPlot.AlignedData = [times.map((t) => t / 1000), ...series.map((s) => s.values.map((v) => (v === null ? null : v)))];
    const plot = new uPlot(options, data, element);
    // New values redraw the chart: the tooltip stays where the pointer still is.
    if (pointer.current) plot.setCursor(pointer.current);
    return () => plot.destroy();
  }, [width, height, scheme, times, series, yRange, unit, xRange, bands, thresholds, sparkline]);

  const points = series.reduce((n, s) => n + s.values.filter((v) => v !== null).length, 0);
  const chart = <div ref={box} className="time-chart" role="img" aria-label={label} data-testid={testId} data-points={points} data-y-range={yRange?.join(',')} />;
  if (sparkline) return chart;
  return (
    <div className="time-chart-frame">
      {title && <div className="time-chart-title">{title}</div>}
      {chart}
      {legend && series.length > 0 && (
        <div className="chart-legend" aria-hidden="true">
          {series.map((s) => (
            <span key={s.label} className="chart-legend-item">
              <span className="chart-legend-swatch" style={{ background: s.color }} />
              {s.label}
            </span>
          ))}
        </div>
      )}
    </div>
  );
}

/** The values under the pointer, in a box beside it (uPlot's own legend is off: it would move the chart). */
function showTooltip(u: uPlot, series: readonly ChartSeries[], unit: string | null | undefined, colors: readonly string[]): void {
  let tip = u.over.querySelector<HTMLDivElement>('.chart-tooltip');
  if (!tip) {
    tip = document.createElement('div');
    tip.className = 'chart-tooltip';
    tip.setAttribute('role', 'tooltip');
    u.over.appendChild(tip);
  }
  const index = u.cursor.idx;
  const left = u.cursor.left ?? -1;
  if (index === null || index === undefined || left < 0) {
    tip.hidden = true;
    return;
  }
  const at = new Date((u.data[0][index] ?? 0) * 1000);
  const rows = series.map((s, i) => {
    const value = u.data[i + 1]?.[index];
    const shown = value === null || value === undefined ? text('kpiChart.noData') : valueLabel(value, unit);
    return `<div><span class="chart-legend-swatch" style="background:${escapeHtml(colors[i] ?? '')}"></span> ${escapeHtml(s.label)}: <strong>${shown}</strong></div>`;
  });
  tip.innerHTML = `<div class="chart-tooltip-time">${escapeHtml(TOOLTIP_TIME().format(at))}</div>${rows.join('')}`;
  tip.hidden = false;
  // Beside the pointer, on the side with room.
  const width = tip.offsetWidth;
  const room = u.over.clientWidth;
  tip.style.left = `${left + 12 + width > room ? Math.max(0, left - 12 - width) : left + 12}px`;
  tip.style.top = '4px';
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
}
