import { useMemo } from 'react';
import type { MachineInfo, Usage } from '../../../../shared/api/resources.js';
import type { UsageSample } from '../../api/index.js';
import { TimeChart, type ChartSeries } from '../../components/time-chart.js';
import { formatNumber } from '../../format/locale.js';
import { useTranslations } from 'use-intl';
import { text } from '../../i18n/language.js';

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
  const t = useTranslations('machine');
  const series = useMemo<ChartSeries[]>(
    () => [
      { label: t('cpu'), color: 'var(--accent)', values: history.map((s) => s.cpu) },
      { label: t('memory'), color: 'var(--series-2)', values: history.map((s) => s.memory) },
      { label: t('disk'), color: 'var(--series-3)', values: history.map((s) => s.disk) },
    ],
    [history, t],
  );
  return (
    <div className="card">
      <h2>{t('title')}</h2>
      <div className="load-rows">
        <LoadRow label={t('cpu')} swatch="var(--accent)" percent={machine.cpu.percent} detail={t('cores', { count: machine.cpu.cpu_count })} />
        <LoadRow label={t('memory')} swatch="var(--series-2)" percent={machine.memory.percent_used} detail={usageDetail(machine.memory)} />
        <LoadRow label={t('disk')} swatch="var(--series-3)" percent={machine.disk.percent_used} detail={usageDetail(machine.disk)} />
      </div>
      {history.length < 2 ? (
        <p className="muted small">{t('filling')}</p>
      ) : (
        <TimeChart
          label={t('chartLabel', { count: history.length })}
          times={times}
          xRange={xRange}
          series={series}
          yRange={PERCENT}
          unit="%"
          height={150}
          testId="machine-load-chart"
          title={t('chartTitle')}
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
  return text('machine.usage', { used: gb(usage.used_gb), total: gb(usage.total_gb), free: gb(usage.available_gb) });
}
