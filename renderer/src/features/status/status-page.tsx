import { GatedButton } from '../../components/gated-button.js';
import { useState } from 'react';
import type { Status } from '../../../../shared/api/resources.js';
import { errorText, STATUS_REFRESH_SECONDS, useAgentAction, useConfig, usePermission, useFlowHistory, useStatus, useStreams, useUsageHistory } from '../../api/index.js';
import { useToast } from '../../app/toasts.js';
import { Ago } from '../../components/ago.js';
import { ConfirmDialog } from '../../components/confirm-dialog.js';
import { ErrorNotice } from '../../components/error-notice.js';
import { LocalTime } from '../../components/local-time.js';
import { StateBadge } from '../../components/state-badge.js';
import { MachineLoad } from './machine-load.js';
import { ServicesCard } from './services-card.js';
import { TransmitsCard } from './transmits-card.js';
import { DataFlowCard, SPARKLINE_MINUTES } from './data-flow-card.js';
import { pollIntervals } from './data-flow.js';

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

const DONE: Record<Action, string> = { start: 'Agent started', stop: 'Agent stopped', restart: 'Agent restarted' };

export function StatusPage() {
  const status = useStatus();
  const history = useUsageHistory();
  const streams = useStreams();
  const flowHistory = useFlowHistory(SPARKLINE_MINUTES);
  const config = useConfig();
  const action = useAgentAction();
  const operate = usePermission('stopAgent');
  const toast = useToast();
  const [asking, setAsking] = useState<'stop' | 'restart' | null>(null);

  const run = (which: Action) => {
    action.mutate(which, {
      onSuccess: (state) => toast('ok', `${DONE[which]}: the agent is ${state}.`),
      onError: (cause) => toast('error', `The agent could not ${which}: ${errorText(cause)}`),
      onSettled: () => setAsking(null),
    });
  };

  if (!status.data) return status.isError ? <ErrorNotice title="Status is not available" error={status.error} /> : <p className="muted">Loading status…</p>;
  const { agent } = status.data;
  return (
    <section className="page" aria-labelledby="status-title">
      <div className="page-head">
        <h1 id="status-title">Status</h1>
        <span className="muted small" data-testid="status-updated">
          Updated <LocalTime value={status.dataUpdatedAt} /> (<Ago at={status.dataUpdatedAt} />), every {STATUS_REFRESH_SECONDS} s
        </span>
      </div>

      <div className="card agent-card">
        <div className="agent-state">
          <span className="card-label">Agent</span>
          <StateBadge state={agent.status} />
        </div>
        <div className="agent-actions">
          <GatedButton gate={operate} className="button button-primary" onClick={() => run('start')} disabled={action.isPending || agent.status === 'running'}>
            Start
          </GatedButton>
          <GatedButton gate={operate} className="button" onClick={() => setAsking('restart')} disabled={action.isPending}>
            Restart
          </GatedButton>
          <GatedButton gate={operate} className="button button-danger" onClick={() => setAsking('stop')} disabled={action.isPending || agent.status === 'stopped'}>
            Stop
          </GatedButton>
          {action.isPending && <span className="muted small" role="status">Working…</span>}
        </div>
        {action.isError && <p className="error-text">The agent could not do that: {errorText(action.error)}</p>}
      </div>

      {(agent.problems ?? []).length > 0 && (
        <div className="notice notice-error" role="alert" data-testid="storage-problems">
          <strong>The agent cannot write everything it needs to.</strong> It keeps what it can in memory and resumes by itself once writing works again.
          <ul>
            {(agent.problems ?? []).map((problem) => (
              <li key={problem.area}>
                {problem.message} <span className="muted small">(since <LocalTime value={problem.since} />)</span>
              </li>
            ))}
          </ul>
        </div>
      )}

      <DataFlowCard streams={streams.data ?? []} services={agent.services} transmits={status.data.last_data_transmit} polls={pollIntervals(config.data?.document)} history={flowHistory.data} />

      <div className="grid-2">
        <ServicesCard services={agent.services} />
        <MachineLoad machine={status.data.machine_info} history={history} />
        <Backups backup={status.data.backup} />
        <TransmitsCard transmits={status.data.last_data_transmit} history={flowHistory.data} />
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
                <>
                  last success <LocalTime value={state.last_success} />
                </>
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
