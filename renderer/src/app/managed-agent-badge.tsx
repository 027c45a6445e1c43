import { agentColour, useFleet, useManagedAgent } from '../api/index.js';

/**
 * Which agent every page shows and changes, always in the header, in that agent's own colour: no one
 * saves a configuration onto the wrong PC (docs/fleet.md).
 */
export function ManagedAgentBadge() {
  const { agent } = useManagedAgent();
  const fleet = useFleet();
  const self = fleet.data?.agents[0]?.name;
  const name = agent ?? (self ? `${self} (this agent)` : 'this agent');
  return (
    <a
      href="#/agents"
      className="managed-agent"
      data-testid="managed-agent"
      data-agent={agent ?? ''}
      style={{ background: agentColour(agent ?? '') }}
      title={agent ? `Every page shows and changes the agent "${agent}", through this one. Choose another on the Agents page.` : 'Every page shows and changes this agent. Choose another on the Agents page.'}
    >
      <span className="managed-agent-label">Managing</span> {name}
    </a>
  );
}

/** The name of the agent a save goes to, for dialogs. */
export function useTargetAgentName(): string {
  const { agent } = useManagedAgent();
  const fleet = useFleet();
  return agent ?? `${fleet.data?.agents[0]?.name ?? 'this agent'} (this agent)`;
}
