import { useState } from 'react';
import type { Status } from '../../../../shared/api/resources.js';
import { errorText, useAgentAction, useStatus, useUsageHistory } from '../../api/index.js';
import { ConfirmDialog } from '../../components/confirm-dialog.js';
import { ErrorNotice } from '../../components/error-notice.js';
import { StateBadge } from '../../components/state-badge.js';
import { MachineLoad } from './machine-load.js';

type Action = 'start' | 'stop' | 'restart';

const CONFIRM: Record<'stop' | 'restart', { title: string; text: string; label: string }> = {
  stop: {
    title: 'Stop the agent?',
    text: 'While the agent is stopped, no data is read from the machines and nothing is sent. Data written meanwhile is read when the agent starts again, as long as the sources keep it.',
    label: 'Stop agent',
  },
  restart: {
    title: 'Restart the agent?',
    text: 'Every receiver and transmit stops and starts again. Data flow pauses for a few seconds.',
    label: 'Restart agent',
  },
};

export function StatusPage() {
  const status = useStatus();
  const history = useUsageHistory();
  const action = useAgentAction();
  const [asking, setAsking] = useState<'stop' | 'restart' | null>(null);

  const run = (which: Action) => {
    action.mutate(which, { onSettled: () => setAsking(null) });
  };

  if (!status.data) return status.isError ? <ErrorNotice title="Status is not available" error={status.error} /> : <p className="muted">Loading status…</p>;
  const { agent } = status.data;
  return (
    <section className="page" aria-labelledby="status-title">
      <div className="page-head">
        <h1 id="status-title">Status</h1>
        <span className="muted">refreshes every 3 s</span>
      </div>

      <div className="card agent-card">
        <div className="agent-state">
          <span className="card-label">Agent</span>
          <StateBadge state={agent.status} />
        </div>
        <div className="agent-actions">
          <button type="button" className="button button-primary" onClick={() => run('start')} disabled={action.isPending || agent.status === 'running'}>
            Start
          </button>
          <button type="button" className="button" onClick={() => setAsking('restart')} disabled={action.isPending}>
            Restart
          </button>
          <button type="button" className="button button-danger" onClick={() => setAsking('stop')} disabled={action.isPending || agent.status === 'stopped'}>
            Stop
          </button>
        </div>
        {action.isError && <p className="error-text" role="alert">The agent could not do that: {errorText(action.error)}</p>}
      </div>

      <div className="grid-2">
        <Services services={agent.services} />
        <MachineLoad machine={status.data.machine_info} history={history} />
        <Backups backup={status.data.backup} />
        <Transmits transmits={status.data.last_data_transmit} />
      </div>

      {asking && (
        <ConfirmDialog
          open
          title={CONFIRM[asking].title}
          confirmLabel={CONFIRM[asking].label}
          tone="danger"
          busy={action.isPending}
          onCancel={() => setAsking(null)}
          onConfirm={() => run(asking)}
        >
          <p>{CONFIRM[asking].text}</p>
        </ConfirmDialog>
      )}
    </section>
  );
}

function Services({ services }: { services: Status['agent']['services'] }) {
  const entries = Object.entries(services).sort(([a], [b]) => a.localeCompare(b));
  return (
    <div className="card">
      <h2>Services</h2>
      {entries.length === 0 ? (
        <p className="muted">No services: the configuration has no receivers or transmits yet.</p>
      ) : (
        <table className="table compact" aria-label="Services">
          <tbody>
            {entries.map(([name, service]) => {
              const [kind, ...rest] = name.split(':');
              return (
                <tr key={name}>
                  <td className="muted">{rest.length > 0 ? kind : ''}</td>
                  <td>{rest.length > 0 ? rest.join(':') : name}</td>
                  <td className="align-right">
                    <StateBadge state={service.status} />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </div>
  );
}

function Backups({ backup }: { backup: Status['backup'] }) {
  const entries = Object.entries(backup);
  return (
    <div className="card">
      <h2>Backup</h2>
      {entries.length === 0 && <p className="muted">No backups are configured.</p>}
      <dl className="facts">
        {entries.map(([feature, state]) => (
          <div key={feature}>
            <dt>{feature}</dt>
            <dd>
              {state.error_code ? (
                <span className="error-text">
                  {state.error_code}
                  {state.error_message ? `: ${state.error_message}` : ''}
                </span>
              ) : state.last_success ? (
                <>last success {formatTime(state.last_success)}</>
              ) : (
                <span className="muted">never backed up</span>
              )}
            </dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

function Transmits({ transmits }: { transmits: Status['last_data_transmit'] }) {
  const entries = Object.entries(transmits);
  return (
    <div className="card">
      <h2>Last data transmit</h2>
      {entries.length === 0 && <p className="muted">Nothing has been transmitted yet.</p>}
      {entries.map(([name, details]) => (
        <div key={name} className="transmit">
          <h3>{name}</h3>
          <dl className="facts">
            {details && typeof details === 'object' && !Array.isArray(details) ? (
              Object.entries(details).map(([key, value]) => (
                <div key={key}>
                  <dt>{key.replaceAll('_', ' ')}</dt>
                  <dd>{value === null ? '—' : typeof value === 'object' ? JSON.stringify(value) : String(value)}</dd>
                </div>
              ))
            ) : (
              <dd>{String(details)}</dd>
            )}
          </dl>
        </div>
      ))}
    </div>
  );
}

function formatTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString();
}
