import { useTranslations } from 'use-intl';
import { agentColour, useFleet, useManagedAgent } from '../api/index.js';
import { text } from '../i18n/language.js';

/**
 * Which agent every page shows and changes, always in the header, in that agent's own colour: no one
 * saves a configuration onto the wrong PC (docs/fleet.md).
 */
export function ManagedAgentBadge() {
  const { agent } = useManagedAgent();
  const fleet = useFleet();
  const self = fleet.data?.agents[0]?.name;
  const t = useTranslations('header');
  const name = agent ?? (self ? t('selfAgent', { name: self }) : t('thisAgent'));
  return (
    <a
      href="#/agents"
      className="managed-agent"
      data-testid="managed-agent"
      data-agent={agent ?? ''}
      style={{ background: agentColour(agent ?? '') }}
      title={agent ? t('managingTitle', { name: agent }) : t('managingSelfTitle')}
    >
      <span className="managed-agent-label">{t('managing')}</span> {name}
    </a>
  );
}

/** The name of the agent a save goes to, for dialogs. */
export function useTargetAgentName(): string {
  const { agent } = useManagedAgent();
  const fleet = useFleet();
  return agent ?? text('header.selfAgent', { name: fleet.data?.agents[0]?.name ?? text('header.thisAgent') });
}
