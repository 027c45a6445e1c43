import type { AgentStatus, ServiceHealth, ServiceStatus } from '../../shared/api/resources.js';

export type TrayColour = 'green' | 'amber' | 'red' | 'grey';

export interface TrayPresentation {
  colour: TrayColour;
  tooltip: string;
}

/**
 * What the tray shows for an agent state: green running, amber running with a service down, of
 * unknown state or degraded (current error markers), red failed, grey stopped.
 */
export function trayPresentation(agent: AgentStatus, services: Record<string, { status: ServiceStatus; health?: ServiceHealth }>): TrayPresentation {
  const notRunning = Object.entries(services).filter(([, s]) => s.status !== 'running' || s.health === 'degraded').map(([name]) => name);
  if (agent === 'failed') return { colour: 'red', tooltip: 'Tributary: the agent failed — open the console for details' };
  if (agent === 'stopped') return { colour: 'grey', tooltip: 'Tributary: stopped — no data is collected' };
  if (notRunning.length > 0) return { colour: 'amber', tooltip: `Tributary: running, ${notRunning.length} ${notRunning.length === 1 ? 'service needs' : 'services need'} attention (${notRunning.slice(0, 3).join(', ')})` };
  return { colour: 'green', tooltip: `Tributary: running, ${Object.keys(services).length} ${Object.keys(services).length === 1 ? 'service' : 'services'}` };
}

export interface TrayMenuItem {
  id: 'open' | 'start' | 'stop' | 'quit' | 'separator';
  label: string;
  enabled: boolean;
}

/** The tray menu: open the console, start or stop the agent (whichever applies), quit. */
export function trayMenu(agent: AgentStatus): TrayMenuItem[] {
  return [
    { id: 'open', label: 'Open console', enabled: true },
    { id: 'separator', label: '', enabled: true },
    { id: 'start', label: 'Start agent', enabled: agent !== 'running' },
    { id: 'stop', label: 'Stop agent', enabled: agent === 'running' },
    { id: 'separator', label: '', enabled: true },
    { id: 'quit', label: 'Quit Tributary (stops data collection)', enabled: true },
  ];
}
