/**
 * The console's one chart: time series drawn by uPlot (bundled, no network), with local-time ticks
 * that fit the range, an optional fixed value range (0–100 for percentages), shaded value bands and
 * threshold lines. Colours come from the theme's CSS variables, so both themes read well.
 */
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { useDarkMode } from '../app/use-color-scheme.js';

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
}

/** Tick steps of the time axis in seconds: whole seconds at least, then minutes, hours, days. */
const TIME_STEPS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10_800, 21_600, 43_200, 86_400, 2 * 86_400, 7 * 86_400, 14 * 86_400, 30 * 86_400];

const pad = (n: number) => String(n).padStart(2, '0');

/** Time tick labels in local time, as the rest of the console writes times: 10:29:50, 10:30, 11-24 (2026-11-24 at day steps). */
function timeTicks(seconds: readonly number[], step: number): string[] {
  return seconds.map((s, i) => {
    const d = new Date(s * 1000);
    const time = `${pad(d.getHours())}:${pad(d.getMinutes())}`;
    if (step >= 86_400) return i === 0 ? `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}` : `${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
    // A new day within the range is named at its first tick.
    const dayChanged = i > 0 && new Date(seconds[i - 1]! * 1000).getDate() !== d.getDate();
    const label = step < 60 ? `${time}:${pad(d.getSeconds())}` : time;
    return dayChanged ? `${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${label}` : label;
  });
}

const BAND_FILL = { good: '--ok-bg', bad: '--error-bg' } as const;
const LINE = { good: '--ok', bad: '--error' } as const;

const NONE: readonly never[] = [];

export function TimeChart({ label, times, series, yRange, unit, xRange, bands = NONE, thresholds = NONE, height = 200, testId, sparkline = false }: TimeChartProps) {
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  const scheme = useDarkMode() ? 'dark' : 'light';

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
            { ...axis, size: 56, values: (_u, ticks) => ticks.map((v) => `${Number(v.toPrecision(6))}${unit ? ` ${unit}` : ''}`) },
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
    return () => plot.destroy();
  }, [width, height, scheme, times, series, yRange, unit, xRange, bands, thresholds, sparkline]);

  const points = series.reduce((n, s) => n + s.values.filter((v) => v !== null).length, 0);
  return <div ref={box} className="time-chart" role="img" aria-label={label} data-testid={testId} data-points={points} data-y-range={yRange?.join(',')} />;
}
