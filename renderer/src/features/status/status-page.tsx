import { GatedButton } from '../../components/gated-button.js';
import { useState } from 'react';
import { useTranslations } from 'use-intl';
import type { Status } from '../../../../shared/api/resources.js';
import { errorText, STATUS_REFRESH_SECONDS, useAgentAction, useConfig, usePermission, useFlowHistory, useStatus, useStreams, useUsageHistory } from '../../api/index.js';
import { useToast } from '../../app/toasts.js';
import { Ago } from '../../components/ago.js';
import { ConfirmDialog } from '../../components/confirm-dialog.js';
import { ErrorNotice } from '../../components/error-notice.js';
import { LocalTime } from '../../components/local-time.js';
import { StateBadge, stateWord } from '../../components/state-badge.js';
import { MachineLoad } from './machine-load.js';
import { ServicesCard } from './services-card.js';
import { TransmitsCard } from './transmits-card.js';
import { DataFlowCard, SPARKLINE_MINUTES } from './data-flow-card.js';
import { QualityCard } from './quality-card.js';
import { pollIntervals } from './data-flow.js';
import { agentTextOf } from '../../i18n/agent-text.js';

type Action = 'start' | 'stop' | 'restart';

const CONFIRM = {
  stop: { title: 'stopTitle', text: 'stopText', label: 'stopLabel' },
  restart: { title: 'restartTitle', text: 'restartText', label: 'restartLabel' },
} as const;

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
  const t = useTranslations('status');
  const tPages = useTranslations('pages');
  const tCommon = useTranslations('common');

  const run = (which: Action) => {
    action.mutate(which, {
      onSuccess: (state) => toast('ok', t('done', { action: which, state: stateWord(state) })),
      onError: (cause) => toast('error', t('failed', { action: which, error: errorText(cause) })),
      onSettled: () => setAsking(null),
    });
  };

  if (!status.data) return status.isError ? <ErrorNotice title={t('unavailable')} error={status.error} /> : <p className="muted">{t('loading')}</p>;
  const { agent } = status.data;
  return (
    <section className="page" aria-labelledby="status-title">
      <div className="page-head">
        <h1 id="status-title">{tPages('status')}</h1>
        <span className="muted small" data-testid="status-updated">
          {t.rich('updated', { time: () => <LocalTime value={status.dataUpdatedAt} />, ago: () => <Ago at={status.dataUpdatedAt} />, seconds: STATUS_REFRESH_SECONDS })}
        </span>
      </div>

      <div className="card agent-card">
        <div className="agent-state">
          <span className="card-label">{t('agent')}</span>
          <StateBadge state={agent.status} />
        </div>
        <div className="agent-actions">
          <GatedButton gate={operate} className="button button-primary" onClick={() => run('start')} disabled={action.isPending || agent.status === 'running'}>
            {t('start')}
          </GatedButton>
          <GatedButton gate={operate} className="button" onClick={() => setAsking('restart')} disabled={action.isPending}>
            {t('restart')}
          </GatedButton>
          <GatedButton gate={operate} className="button button-danger" onClick={() => setAsking('stop')} disabled={action.isPending || agent.status === 'stopped'}>
            {t('stop')}
          </GatedButton>
          {action.isPending && <span className="muted small" role="status">{tCommon('working')}</span>}
        </div>
        {action.isError && <p className="error-text">{t('couldNot', { error: errorText(action.error) })}</p>}
      </div>

      {(agent.problems ?? []).length > 0 && (
        <div className="notice notice-error" role="alert" data-testid="storage-problems">
          <strong>{t('storageProblem')}</strong> {t('storageResumes')}
          <ul>
            {(agent.problems ?? []).map((problem) => (
              <li key={problem.area}>
                {agentTextOf(problem, problem.message)} <span className="muted small">{t.rich('since', { time: () => <LocalTime value={problem.since} /> })}</span>
              </li>
            ))}
          </ul>
        </div>
      )}

      <DataFlowCard streams={streams.data ?? []} services={agent.services} polls={pollIntervals(config.data?.document)} history={flowHistory.data} transmits={status.data.last_data_transmit} />

      <QualityCard streams={streams.data ?? []} history={flowHistory.data} />

      <div className="grid-2">
        <ServicesCard services={agent.services} />
        <MachineLoad machine={status.data.machine_info} history={history} />
        <Backups backup={status.data.backup} />
        <TransmitsCard transmits={status.data.last_data_transmit} history={flowHistory.data} />
      </div>

      {asking && (
        <ConfirmDialog
          open
          title={t(CONFIRM[asking].title)}
          confirmLabel={t(CONFIRM[asking].label)}
          tone="danger"
          busy={action.isPending}
          onCancel={() => setAsking(null)}
          onConfirm={() => run(asking)}
        >
          <p>{t(CONFIRM[asking].text)}</p>
        </ConfirmDialog>
      )}
    </section>
  );
}

function Backups({ backup }: { backup: Status['backup'] }) {
  const entries = Object.entries(backup);
  const t = useTranslations('status');
  return (
    <div className="card">
      <h2>{t('backup')}</h2>
      {entries.length === 0 && <p className="muted">{t('noBackups')}</p>}
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
                <>{t.rich('lastSuccess', { time: () => <LocalTime value={state.last_success!} /> })}</>
              ) : (
                <span className="muted">{t('neverBackedUp')}</span>
              )}
            </dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
