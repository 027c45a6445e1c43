import { useMemo } from 'react';
import type { MachineInfo, Usage } from '../../../../shared/api/resources.js';
import type { UsageSample } from '../../api/index.js';
import { TimeChart, type ChartSeries } from '../../components/time-chart.js';
import { formatNumber } from '../../format/locale.js';

const PERCENT: readonly [number, number] = [0, 100];
/** The chart shows the last three minutes, filling from the right as samples arrive. */
const WINDOW_MS = 3 * 60_000;

/** CPU, memory and disk now, and their course since this console opened (one chart, 0–100 %). */
export function MachineLoad({ machine, history }: { machine: MachineInfo; history: readonly UsageSample[] }) {
  const times = useMemo(() => history.map((s) => s.at), [history]);
  const xRange = useMemo(() => {
    const last = history.at(-1)?.at ?? Date.now();
    return [last - WINDOW_MS, last] as const;
  }, [history]);
  const series = useMemo<ChartSeries[]>(
    () => [
      { label: 'CPU', color: 'var(--accent)', values: history.map((s) => s.cpu) },
      { label: 'Memory', color: 'var(--series-2)', values: history.map((s) => s.memory) },
      { label: 'Disk', color: 'var(--series-3)', values: history.map((s) => s.disk) },
    ],
    [history],
  );
  return (
    <div className="card">
      <h2>This PC</h2>
      <div className="load-rows">
        <LoadRow label="CPU" swatch="var(--accent)" percent={machine.cpu.percent} detail={`${machine.cpu.cpu_count} cores`} />
        <LoadRow label="Memory" swatch="var(--series-2)" percent={machine.memory.percent_used} detail={usageDetail(machine.memory)} />
        <LoadRow label="Disk" swatch="var(--series-3)" percent={machine.disk.percent_used} detail={usageDetail(machine.disk)} />
      </div>
      {history.length < 2 ? (
        <p className="muted small">The chart of the last minutes fills in as the console samples the load.</p>
      ) : (
        <TimeChart
          label={`Machine load history: CPU, memory and disk in percent over the last three minutes (${history.length} samples)`}
          times={times}
          xRange={xRange}
          series={series}
          yRange={PERCENT}
          unit="%"
          height={150}
          testId="machine-load-chart"
          title="CPU, memory and disk (%), last 3 minutes"
        />
      )}
    </div>
  );
}

function LoadRow({ label, swatch, percent, detail }: { label: string; swatch: string; percent: number; detail: string }) {
  const level = percent >= 90 ? 'high' : percent >= 75 ? 'elevated' : 'normal';
  return (
    <div className={`load-row load-${level}`}>
      <span className="load-swatch" style={{ background: swatch }} aria-hidden="true" />
      <span className="card-label">{label}</span>
      <span className="load-value">{formatNumber(percent, { fractionDigits: 1 })} %</span>
      <span className="muted small">{detail}</span>
    </div>
  );
}

function usageDetail(usage: Usage): string {
  const gb = (value: number) => formatNumber(value, { fractionDigits: 1 });
  return `${gb(usage.used_gb)} of ${gb(usage.total_gb)} GB used, ${gb(usage.available_gb)} GB free`;
}
