import type { MachineInfo, Usage } from '../../../../shared/api/resources.js';
import type { UsageSample } from '../../api/index.js';
import { Sparkline } from '../../components/sparkline.js';

/** CPU, memory and disk now, with the samples this console has seen since it opened. */
export function MachineLoad({ machine, history }: { machine: MachineInfo; history: readonly UsageSample[] }) {
  return (
    <div className="card">
      <h2>This PC</h2>
      <div className="load-rows">
        <LoadRow label="CPU" percent={machine.cpu.percent} detail={`${machine.cpu.cpu_count} cores`} values={history.map((s) => s.cpu)} />
        <LoadRow label="Memory" percent={machine.memory.percent_used} detail={usageDetail(machine.memory)} values={history.map((s) => s.memory)} />
        <LoadRow label="Disk" percent={machine.disk.percent_used} detail={usageDetail(machine.disk)} values={history.map((s) => s.disk)} />
      </div>
    </div>
  );
}

function LoadRow({ label, percent, detail, values }: { label: string; percent: number; detail: string; values: number[] }) {
  const level = percent >= 90 ? 'high' : percent >= 75 ? 'elevated' : 'normal';
  return (
    <div className={`load-row load-${level}`}>
      <div className="load-text">
        <span className="card-label">{label}</span>
        <span className="load-value">{percent.toFixed(1)} %</span>
        <span className="muted small">{detail}</span>
      </div>
      <Sparkline values={values} label={`${label} history`} />
    </div>
  );
}

function usageDetail(usage: Usage): string {
  return `${usage.used_gb.toFixed(1)} of ${usage.total_gb.toFixed(1)} GB used, ${usage.available_gb.toFixed(1)} GB free`;
}
