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
const SORTS: Record<SortKey, { label: string; compare: (a: FleetAgent, b: FleetAgent) => number }> = {
  name: { label: 'name', compare: (a, b) => a.name.localeCompare(b.name) },
  // Problems first: unreachable or refused, then degraded, then ok.
  health: { label: 'problems first', compare: (a, b) => rank(a) - rank(b) },
  stale: { label: 'stale streams', compare: (a, b) => b.streams.stale - a.streams.stale },
  backlog: { label: 'backlog', compare: (a, b) => b.backlog_records - a.backlog_records },
  last_seen: { label: 'last seen', compare: (a, b) => (a.last_seen ?? '').localeCompare(b.last_seen ?? '') },
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
  const rows = useMemo(() => {
    const words = filter.trim().toLowerCase();
    const [self, ...others] = agents;
    const shown = others.filter((a) => !words || `${a.name} ${a.url} ${a.state ?? ''} ${a.health} ${a.error ?? ''} ${a.version ?? ''}`.toLowerCase().includes(words));
    // This agent stays first: the one that holds the list.
    return [...(self && (!words || self.name.toLowerCase().includes(words) || 'this agent'.includes(words)) ? [self] : []), ...shown.sort(SORTS[sort].compare)];
  }, [agents, filter, sort]);

  return (
    <section className="page" aria-labelledby="agents-title">
      <h1 id="agents-title">Agents</h1>
      <p className="muted">The agents managed from here, polled every 5 s. Choose one to see and change it on every page; the header names it in its colour.</p>
      <div className="toolbar">
        <label className="field">
          Filter
          <input value={filter} onChange={(event) => setFilter(event.target.value)} placeholder="name, address, state, error…" />
        </label>
        <label className="field">
          Sort by
          <select value={sort} onChange={(event) => setSort(event.target.value as SortKey)}>
            {Object.entries(SORTS).map(([key, { label }]) => (
              <option key={key} value={key}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <button type="button" className="button button-primary" disabled={admin.disabled} title={admin.title} onClick={() => setAdding(true)}>
          Add agent…
        </button>
      </div>
      {fleet.isError && <p className="notice notice-error" role="alert">{errorText(fleet.error)}</p>}
      <table className="table" aria-label="Agents">
        <thead>
          <tr>
            <th>Agent</th>
            <th>Health</th>
            <th>State</th>
            <th>Streams</th>
            <th>Backlog</th>
            <th>Records / min, last hour</th>
            <th>Version</th>
            <th>Revision</th>
            <th>Actions</th>
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
  return (
    <tr data-agent={agent.name} aria-current={managed ? 'true' : undefined}>
      <td>
        <span className="agent-swatch" style={{ background: agentColour(agent.self ? '' : agent.name) }} aria-hidden="true" />
        <strong>{agent.self ? `${agent.name} (this agent)` : agent.name}</strong>
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
            seen <Ago at={Date.parse(agent.last_seen)} />
          </div>
        )}
      </td>
      <td>{agent.state ? <StateBadge state={agent.state} /> : <span className="muted">never reached</span>}</td>
      <td>
        <span title="streams with a record in the last 5 minutes">{agent.streams.flowing} flowing</span>
        {agent.streams.stale > 0 && <span className="warning-text"> · {agent.streams.stale} stale</span>}
        <div className="muted small">of {agent.streams.total}</div>
      </td>
      <td>{formatNumber(agent.backlog_records)}</td>
      <td>
        <Sparkline values={perMinute.data} label={`Records per minute of ${agent.name}`} />
      </td>
      <td>{agent.version ?? '–'}</td>
      <td>{agent.revision ?? '–'}</td>
      <td className="actions">
        <button type="button" className="button small" onClick={onManage} disabled={managed} aria-label={`Manage ${agent.name}`}>
          {managed ? 'Managed now' : 'Manage'}
        </button>
        {!agent.self && agent.presented_fingerprint && admin && (
          <button type="button" className="button small button-danger" onClick={onRepin}>
            Re-pin…
          </button>
        )}
        {!agent.self && admin && (
          <button type="button" className="button small" onClick={onRemove} aria-label={`Remove ${agent.name}`}>
            Remove…
          </button>
        )}
      </td>
    </tr>
  );
}
