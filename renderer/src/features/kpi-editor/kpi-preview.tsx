import { useTranslations } from 'use-intl';
import { useMemo, useState } from 'react';
import type { EvaluateRequest, KpiEvaluation } from '../../../../shared/kpi/api.js';
import { KpiInvalidError, errorText, useKpiEvaluation, useStreams } from '../../api/index.js';
import { formatValue } from './chart-geometry.js';
import { BIN_SIZES, machineList, PREVIEW_RANGES, previewWindow } from './kpi-draft.js';
import { KpiChart } from './kpi-chart.js';

interface PreviewProps {
  /** The draft as parsed from the editor; null while it is not valid JSON. */
  document: unknown;
  /** Whether validation found no errors (the preview needs a valid KPI). */
  valid: boolean;
  isLine: boolean;
}

/** Computes the draft on this agent's recent records: machines, range and bin size are chosen here. */
export function KpiPreview({ document, valid, isLine }: PreviewProps) {
  const streams = useStreams();
  const t = useTranslations('kpi');
  const configuredMachines = useMemo(() => [...new Set((streams.data ?? []).map((s) => s.asset))], [streams.data]);
  const [machinesText, setMachinesText] = useState<string | null>(null);
  const [range, setRange] = useState<string>('1h');
  const [binSize, setBinSize] = useState<string>('1m');
  const [request, setRequest] = useState<EvaluateRequest | null>(null);
  const [runs, setRuns] = useState(0);
  const evaluation = useKpiEvaluation(request, runs);

  // Until the operator types, the field offers the configured machines (a line KPI names its own).
  const machinesValue = machinesText ?? (isLine ? '' : configuredMachines.join(', '));

  const run = () => {
    const seconds = PREVIEW_RANGES.find((r) => r.id === range)!.seconds;
    const bin = BIN_SIZES.find((b) => b.id === binSize)!.seconds;
    const machines = machineList(machinesValue);
    setRuns((n) => n + 1);
    setRequest({ definition: document, ...previewWindow(Date.now(), seconds, bin), bin_size: bin, ...(machines.length > 0 ? { machines } : {}) });
  };

  return (
    <section className="card kpi-preview" aria-labelledby="kpi-preview-title">
      <h2 id="kpi-preview-title">{t('previewTitle')}</h2>
      <div className="toolbar">
        <label className="field">
          {t('machines')}
          <input type="text" className="kpi-machines" value={machinesValue} onChange={(event) => setMachinesText(event.target.value)} placeholder={isLine ? t('lineMachines') : t('machinesExample')} />
        </label>
        <label className="field">
          {t('range')}
          <select value={range} onChange={(event) => setRange(event.target.value)}>
            {PREVIEW_RANGES.map((r) => (
              <option key={r.id} value={r.id}>
                {t(`ranges.${r.id}`)}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          {t('binSize')}
          <select value={binSize} onChange={(event) => setBinSize(event.target.value)}>
            {BIN_SIZES.map((b) => (
              <option key={b.id} value={b.id}>
                {t(`binSizes.${b.id}`)}
              </option>
            ))}
          </select>
        </label>
        <button type="button" className="button button-primary" onClick={run} disabled={!valid} title={valid ? t('computeTitle') : t('fixFirst')}>
          {t('preview')}
        </button>
        {evaluation.isFetching && <span className="muted small">{t('computing')}</span>}
      </div>
      {evaluation.isError && (
        <div className="notice notice-error" role="alert">
          {evaluation.error instanceof KpiInvalidError ? t('needsValid') : t('previewFailed', { error: errorText(evaluation.error) })}
        </div>
      )}
      {request === null && <p className="muted small">{t('previewHint')}</p>}
      {evaluation.data && !evaluation.isError && <PreviewResult evaluation={evaluation.data} />}
    </section>
  );
}

function PreviewResult({ evaluation }: { evaluation: KpiEvaluation }) {
  const t = useTranslations('kpi');
  return (
    <>
      <KpiChart evaluation={evaluation} />
      <table className="table compact kpi-summary" aria-label={t('summary')}>
        <thead>
          <tr>
            <th>{t('machine')}</th>
            <th className="align-right">{t('latest')}</th>
            <th>{t('status')}</th>
            <th className="align-right">{t('bins')}</th>
            <th>{t('dependencies')}</th>
          </tr>
        </thead>
        <tbody>
          {evaluation.machines.map((series) => {
            const latest = [...series.bins].reverse().find((bin) => bin.value !== null);
            return (
              <tr key={series.machine}>
                <td>{series.machine}</td>
                <td className="align-right count" title={latest ? undefined : (series.reason ?? undefined)}>
                  {formatValue(latest?.value ?? null, evaluation.unit)}
                </td>
                <td>{latest ? <span className={`kpi-status kpi-status-${latest.status}`}>{t(`statuses.${latest.status}`)}</span> : '—'}</td>
                <td className="align-right">
                  {t('binsOf', { count: series.bins.filter((bin) => bin.value !== null).length, total: series.bins.length })}
                </td>
                <td className="mono small">{latest ? Object.entries(latest.dependencies).map(([name, value]) => `${name} = ${formatValue(value)}`).join(', ') : '—'}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </>
  );
}
