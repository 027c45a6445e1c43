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
      <h2 id="kpi-preview-title">Preview on this agent's recent data</h2>
      <div className="toolbar">
        <label className="field">
          Machines
          <input type="text" className="kpi-machines" value={machinesValue} onChange={(event) => setMachinesText(event.target.value)} placeholder={isLine ? 'the machines the KPI names' : 'e.g. Press_1, Press_2'} />
        </label>
        <label className="field">
          Range
          <select value={range} onChange={(event) => setRange(event.target.value)}>
            {PREVIEW_RANGES.map((r) => (
              <option key={r.id} value={r.id}>{r.label}</option>
            ))}
          </select>
        </label>
        <label className="field">
          Bin size
          <select value={binSize} onChange={(event) => setBinSize(event.target.value)}>
            {BIN_SIZES.map((b) => (
              <option key={b.id} value={b.id}>{b.label}</option>
            ))}
          </select>
        </label>
        <button type="button" className="button button-primary" onClick={run} disabled={!valid} title={valid ? 'Compute the KPI on the recent records' : 'Fix the errors first'}>
          Preview
        </button>
        {evaluation.isFetching && <span className="muted small">Computing…</span>}
      </div>
      {evaluation.isError && (
        <div className="notice notice-error" role="alert">
          {evaluation.error instanceof KpiInvalidError ? 'The preview needs a valid KPI: fix the errors listed above.' : `The preview failed: ${errorText(evaluation.error)}`}
        </div>
      )}
      {request === null && <p className="muted small">Choose machines, a range and a bin size, then Preview. Values are computed per bin from the records this agent received in the last days.</p>}
      {evaluation.data && !evaluation.isError && <PreviewResult evaluation={evaluation.data} />}
    </section>
  );
}

function PreviewResult({ evaluation }: { evaluation: KpiEvaluation }) {
  return (
    <>
      <KpiChart evaluation={evaluation} />
      <table className="table compact kpi-summary" aria-label="Preview summary">
        <thead>
          <tr>
            <th>Machine</th>
            <th className="align-right">Latest value</th>
            <th>Status</th>
            <th className="align-right">Bins with a value</th>
            <th>Dependencies of the latest bin</th>
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
                <td>{latest ? <span className={`kpi-status kpi-status-${latest.status}`}>{latest.status}</span> : '—'}</td>
                <td className="align-right">
                  {series.bins.filter((bin) => bin.value !== null).length} of {series.bins.length}
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
