import { useTranslations } from 'use-intl';
import { useMemo, useState } from 'react';
import type { FleetAgent } from '../../../../shared/api/fleet.js';
import { agentColour, errorText, useAgentRecordsPerMinute, useFleet, useManagedAgent, usePermission } from '../../api/index.js';
import { Ago } from '../../components/ago.js';
import { StateBadge } from '../../components/state-badge.js';
import { useNavigation } from '../../app/navigation.js';
import { AddAgentDialog, RemoveDialog, RepinDialog } from './fleet-dialogs.js';
import { Sparkline } from './sparkline.js';
import { formatNumber } from '../../format/locale.js';

type SortKey = 'name' | 'health' | 'stale' | 'backlog' | 'last_seen';
/** The orders offered; their words are the catalog's agents.sorts.<key>. */
const SORTS: Record<SortKey, { compare: (a: FleetAgent, b: FleetAgent) => number }> = {
  name: { compare: (a, b) => a.name.localeCompare(b.name) },
  // Problems first: unreachable or refused, then degraded, then ok.
  health: { compare: (a, b) => rank(a) - rank(b) },
  stale: { compare: (a, b) => b.streams.stale - a.streams.stale },
  backlog: { compare: (a, b) => b.backlog_records - a.backlog_records },
  last_seen: { compare: (a, b) => (a.last_seen ?? '').localeCompare(b.last_seen ?? '') },
};
const rank = (agent: FleetAgent) => (agent.error ? 0 : agent.health === 'degraded' ? 1 : 2);

/** One row per agent: is every line's data arriving? Choosing one switches every page to it. */
export function AgentsPage() {
  const fleet = useFleet();
  const { agent: managed, manage } = useManagedAgent();
  const { navigate } = useNavigation();
  const admin = usePermission('addFleetAgent');
  const [filter, setFilter] = useState('');
  const [sort, setSort] = useState<SortKey>('name');
  const [adding, setAdding] = useState(false);
  const [repinning, setRepinning] = useState<FleetAgent | null>(null);
  const [removing, setRemoving] = useState<FleetAgent | null>(null);
  const agents = fleet.data?.agents ?? [];
  const t = useTranslations('agents');
  const tPages = useTranslations('pages');
  const thisAgent = t('self', { name: '' }).trim().toLowerCase();
  const rows = useMemo(() => {
    const words = filter.trim().toLowerCase();
    const [self, ...others] = agents;
    const shown = others.filter((a) => !words || `${a.name} ${a.url} ${a.state ?? ''} ${a.health} ${a.error ?? ''} ${a.version ?? ''}`.toLowerCase().includes(words));
    // This agent stays first: the one that holds the list.
    return [...(self && (!words || self.name.toLowerCase().includes(words) || thisAgent.includes(words)) ? [self] : []), ...shown.sort(SORTS[sort].compare)];
  }, [agents, filter, sort, thisAgent]);

  return (
    <section className="page" aria-labelledby="agents-title">
      <h1 id="agents-title">{tPages('agents')}</h1>
      <p className="muted">{t('intro')}</p>
      <div className="toolbar">
        <label className="field">
          {t('filter')}
          <input value={filter} onChange={(event) => setFilter(event.target.value)} placeholder={t('filterPlaceholder')} />
        </label>
        <label className="field">
          {t('sortBy')}
          <select value={sort} onChange={(event) => setSort(event.target.value as SortKey)}>
            {(Object.keys(SORTS) as SortKey[]).map((key) => (
              <option key={key} value={key}>
                {t(`sorts.${key}`)}
              </option>
            ))}
          </select>
        </label>
        <button type="button" className="button button-primary" disabled={admin.disabled} title={admin.title} onClick={() => setAdding(true)}>
          {t('add')}
        </button>
      </div>
      {fleet.isError && <p className="notice notice-error" role="alert">{errorText(fleet.error)}</p>}
      <table className="table" aria-label={tPages('agents')}>
        <thead>
          <tr>
            <th>{t('agent')}</th>
            <th>{t('health')}</th>
            <th>{t('state')}</th>
            <th>{t('streams')}</th>
            <th>{t('backlog')}</th>
            <th>{t('perMinute')}</th>
            <th>{t('version')}</th>
            <th>{t('revision')}</th>
            <th>{t('actions')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((agent) => (
            <AgentRow
              key={agent.self ? '\u0000self' : agent.name}
              agent={agent}
              managed={agent.self ? managed === null : managed === agent.name}
              admin={!admin.disabled}
              onManage={() => {
                manage(agent.self ? null : agent.name);
                navigate('status');
              }}
              onRepin={() => setRepinning(agent)}
              onRemove={() => setRemoving(agent)}
            />
          ))}
        </tbody>
      </table>
      <AddAgentDialog open={adding} onClose={() => setAdding(false)} />
      <RepinDialog agent={repinning} onClose={() => setRepinning(null)} />
      <RemoveDialog agent={removing} onClose={() => setRemoving(null)} onRemoved={(name) => managed === name && manage(null)} />
    </section>
  );
}

function AgentRow({ agent, managed, admin, onManage, onRepin, onRemove }: { agent: FleetAgent; managed: boolean; admin: boolean; onManage: () => void; onRepin: () => void; onRemove: () => void }) {
  const perMinute = useAgentRecordsPerMinute(agent.self ? null : agent.name, agent.reachable && !agent.error);
  const health = agent.error ? (agent.reachable ? 'degraded' : 'unreachable') : agent.health;
  const t = useTranslations('agents');
  return (
    <tr data-agent={agent.name} aria-current={managed ? 'true' : undefined}>
      <td>
        <span className="agent-swatch" style={{ background: agentColour(agent.self ? '' : agent.name) }} aria-hidden="true" />
        <strong>{agent.self ? t('self', { name: agent.name }) : agent.name}</strong>
        <div className="muted small">{agent.url}</div>
        {agent.error && (
          <div className="warning-text small" data-testid="agent-error">
            {agent.error}
          </div>
        )}
      </td>
      <td>
        <StateBadge state={health} />
        {agent.last_seen && (
          <div className="muted small">
            {t.rich('seen', { ago: () => <Ago at={Date.parse(agent.last_seen!)} /> })}
          </div>
        )}
      </td>
      <td>{agent.state ? <StateBadge state={agent.state} /> : <span className="muted">{t('neverReached')}</span>}</td>
      <td>
        <span title={t('flowingTitle')}>{t('flowing', { count: formatNumber(agent.streams.flowing) })}</span>
        {agent.streams.stale > 0 && <span className="warning-text">{t('stale', { count: formatNumber(agent.streams.stale) })}</span>}
        <div className="muted small">{t('of', { total: formatNumber(agent.streams.total) })}</div>
      </td>
      <td>{formatNumber(agent.backlog_records)}</td>
      <td>
        <Sparkline values={perMinute.data} label={t('sparkline', { name: agent.name })} />
      </td>
      <td>{agent.version ?? '–'}</td>
      <td>{agent.revision ?? '–'}</td>
      <td className="actions">
        <button type="button" className="button small" onClick={onManage} disabled={managed} aria-label={t('manageLabel', { name: agent.name })}>
          {managed ? t('managedNow') : t('manage')}
        </button>
        {!agent.self && agent.presented_fingerprint && admin && (
          <button type="button" className="button small button-danger" onClick={onRepin}>
            {t('repin')}
          </button>
        )}
        {!agent.self && admin && (
          <button type="button" className="button small" onClick={onRemove} aria-label={t('removeLabel', { name: agent.name })}>
            {t('remove')}
          </button>
        )}
      </td>
    </tr>
  );
}
